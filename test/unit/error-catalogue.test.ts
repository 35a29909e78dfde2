/** The error catalogue and docs/errors.md list the same codes with the same statuses, both ways. */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { errorCatalogue } from '../../src/kernel/errors/index.js';

describe('error catalogue and docs/errors.md', () => {
  const documented = new Map<string, number>();
  for (const match of readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8').matchAll(/^\| `(MG_[A-Z_]+)` \| (\d{3}) \|/gm)) {
    documented.set(match[1], Number(match[2]));
  }

  it('documents every catalogue code with its status', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(documented.get(code), code).to.equal(entry.status);
    }
  });

  it('documents no code the catalogue lacks', () => {
    for (const code of documented.keys()) expect(errorCatalogue, code).to.have.property(code);
  });
});
