/**
 * `npm ci` (what .ci/run and a fresh clone run) refuses a lock file that names an optional dependency without an
 * entry for it. `npm install` against a registry mirror that lacks another platform's binaries writes exactly such a
 * lock (it happened with @msgpackr-extract's darwin/win32 builds), and nothing else notices until CI fails.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';

interface LockedPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, LockedPackage> };

/** Where npm looks for `name` from the package at `path`: its own node_modules, then each enclosing one. */
function resolves(path: string, name: string): boolean {
  let base = path;
  for (;;) {
    if (lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
    if (!base) return false;
    const cut = base.lastIndexOf('node_modules/');
    base = cut <= 0 ? '' : base.slice(0, cut - 1);
  }
}

describe('package-lock.json', () => {
  it('has an entry for every optional dependency it names, for every platform, so npm ci accepts it', () => {
    const missing = Object.entries(lock.packages).flatMap(([path, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolves(path, name))
        .map((name) => `${path || '(root)'} -> ${name}`),
    );
    expect(missing, 'run npm install on a machine whose registry has every platform build, or add the entries (version, os, cpu)').to.deep.equal([]);
  });
});
