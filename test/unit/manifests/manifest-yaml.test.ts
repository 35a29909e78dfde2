/**
 * Every manifest is plain, unambiguous YAML: it parses with the yaml library's strict and uniqueKeys options without
 * an error or a warning, and no mapping entry is a key without a value. That last trap is the one that bit
 * three_d.model.generate: inside a flow mapping an unquoted comma ends the entry, so
 * `{ type: array, description: copies (FBX, USDZ, textures). }` parses, silently, as the keys `USDZ` and
 * `textures).` with null values, which then showed up in the OpenAPI document as schema keywords.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { isMap, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { projectRoot } from '../../../src/kernel/config/index.js';

const OPERATIONS_DIR = join(projectRoot, 'manifests/operations');

/** What makes a manifest's YAML untrustworthy, each as `line:column message`; empty when there is nothing. */
function yamlFaults(source: string): string[] {
  const lines = new LineCounter();
  const document: Document = parseDocument(source, { strict: true, uniqueKeys: true, prettyErrors: true, lineCounter: lines });
  const faults = [...document.errors, ...document.warnings].map((problem) => `${problem.linePos?.[0].line}:${problem.linePos?.[0].col} ${problem.code}: ${problem.message.split('\n')[0]}`);
  visit(document, {
    Pair(_, pair, path) {
      // `key:` with nothing after it has a null scalar value; a bare `key` (no colon at all) has no value node.
      if (pair.value !== null || !isMap(path[path.length - 1])) return;
      const key = pair.key as { source?: string; range?: [number, number, number] } | null;
      const at = key?.range ? lines.linePos(key.range[0]) : undefined;
      faults.push(`${at?.line}:${at?.col} key without a value: ${JSON.stringify(key?.source ?? null)} (an unquoted comma inside { ... }?)`);
    },
  });
  return faults;
}

describe('manifest YAML', () => {
  const files = readdirSync(OPERATIONS_DIR).filter((name) => /\.ya?ml$/.test(name)).sort();

  it('finds the manifests', () => {
    expect(files).to.include.members(['three_d.model.generate.yaml', 'video.generate.yaml', 'image.generate.yaml']);
  });

  for (const file of files) {
    it(`${file} parses strictly, with unique keys and no key without a value`, () => {
      expect(yamlFaults(readFileSync(join(OPERATIONS_DIR, file), 'utf8')), file).to.deep.equal([]);
    });
  }

  describe('the check itself', () => {
    it('reports the bare keys an unquoted comma makes in a flow mapping', () => {
      const source = 'output:\n  properties:\n    raw: { type: array, description: copies (FBX, USDZ, textures). }\n';
      expect(yamlFaults(source)).to.deep.equal([
        '3:51 key without a value: "USDZ" (an unquoted comma inside { ... }?)',
        '3:57 key without a value: "textures)." (an unquoted comma inside { ... }?)',
      ]);
    });

    it('accepts the same description quoted, and an empty value written with a colon', () => {
      expect(yamlFaults('raw: { type: array, description: "copies (FBX, USDZ, textures)." }\nnothing:\n')).to.deep.equal([]);
    });

    it('reports a duplicate key', () => {
      expect(yamlFaults('input:\n  type: object\n  type: string\n')).to.have.length(1).and.to.match(/^3:3 DUPLICATE_KEY/);
    });
  });
});
