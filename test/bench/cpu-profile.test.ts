/**
 * The bench's `.cpuprofile` summary (bench/cpu-profile.ts): self time per function within the load's window, idle
 * left out, frames named by function and source line (TypeScript lines read back through tsx's cached source maps).
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { readProfileFrom, summarizeProfile, tsxSourceLines } from '../../bench/cpu-profile.js';

const root = '/srv/mediagate/';
const frame = (id: number, functionName: string, url = '', lineNumber = -1, columnNumber = -1) => ({ id, callFrame: { functionName, url, lineNumber, columnNumber } });

// Samples 1 ms apart from t = 1000 µs: node 2 (a read) four times, the idle node twice, node 3 (writev) once, and
// node 4 (a dependency's function) once, the last sample at t = 8000 µs.
const profile = {
  nodes: [
    frame(1, '(root)'),
    frame(2, 'first', `file://${root}src/kernel/store/sqlite-executor.ts`, 73, 4),
    frame(3, 'writev'),
    frame(4, 'match', `file://${root}node_modules/@koa/router/dist/index.mjs`, 1424, 2),
    frame(5, '(idle)'),
  ],
  startTime: 0,
  samples: [2, 5, 2, 3, 5, 2, 4, 2],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe('bench cpu-profile: the self-time summary', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mediagate-cpu-profile-test-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  it('ranks self time over the busy samples, idle left out, named by function and 1-based file:line', () => {
    expect(summarizeProfile(profile, root)).to.deep.equal({
      busySamples: 6,
      items: [
        { name: 'first (src/kernel/store/sqlite-executor.ts:74)', percent: (100 * 4) / 6 },
        { name: 'writev', percent: 100 / 6 },
        { name: 'match (node_modules/@koa/router/dist/index.mjs:1425)', percent: 100 / 6 },
      ],
    });
  });

  it('counts only the samples inside the window, and at most `limit` items', () => {
    // t = 3000 .. 6000 µs: samples 3 (read), 4 (writev), 5 (idle) and 6 (read).
    expect(summarizeProfile(profile, root, { window: { fromUs: 3000, toUs: 6000 }, limit: 1 })).to.deep.equal({
      busySamples: 3,
      items: [{ name: 'first (src/kernel/store/sqlite-executor.ts:74)', percent: (100 * 2) / 3 }],
    });
  });

  it("maps a TypeScript frame's position to its source line through the newest tsx cache entry of its file", async () => {
    const source = `${root}src/kernel/store/sqlite-executor.ts`;
    // Generated line 0: column 0 is source line 0, column 10 is source line 5 (VLQ: U = 10, K = 5; the older entry's M = 6).
    const entry = (mappings: string) => JSON.stringify({ code: 'x', map: { version: 3, sources: [source], names: [], mappings } });
    await writeFile(join(folder, 'old'), entry('AAAA,UAMA'));
    await utimes(join(folder, 'old'), new Date(1_000_000), new Date(1_000_000));
    await writeFile(join(folder, 'new'), entry('AAAA,UAKA'));
    await writeFile(join(folder, 'unrelated'), 'not json');
    const sourceLines = await tsxSourceLines(folder);
    expect(sourceLines(source, 0, 12)).to.equal(5);
    expect(sourceLines(`${root}src/other.ts`, 0, 12)).to.equal(undefined);
    const mapped = { ...profile, nodes: profile.nodes.map((node) => (node.id === 2 ? frame(2, '(anonymous)', `file://${source}`, 0, 12) : node)) };
    expect(summarizeProfile(mapped, root, { sourceLines, limit: 1 }).items).to.deep.equal([{ name: '(anonymous) (src/kernel/store/sqlite-executor.ts:6)', percent: (100 * 4) / 6 }]);
  });

  it("reads the main thread's profile of the process, not its worker threads'", async () => {
    await writeFile(join(folder, 'CPU.20261123.200501.4242.0.001.cpuprofile'), JSON.stringify(profile));
    await writeFile(join(folder, 'CPU.20261123.200501.4242.1.002.cpuprofile'), JSON.stringify({ ...profile, samples: [] }));
    await writeFile(join(folder, 'CPU.20261123.200501.777.0.003.cpuprofile'), JSON.stringify({ ...profile, samples: [] }));
    expect(await readProfileFrom(folder, 4242)).to.deep.equal(profile);
    await rm(join(folder, 'CPU.20261123.200501.4242.0.001.cpuprofile'));
    const failure = await readProfileFrom(folder, 4242).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).to.match(/expected one main-thread \.cpuprofile of process 4242/);
  });
});
