/**
 * Background WAL checkpoints (sqlite-checkpointer.ts): the serving connection no longer checkpoints at
 * SQLite's default 1000 pages, so if the thread did not do its job the database file would not grow until
 * the WAL reached the 64 MB backstop. These tests write well past 1000 pages and well under the backstop.
 */
import { expect } from 'chai';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteExecutor } from '../../../src/kernel/store/sqlite-executor.js';
import { defaultBackstopPages } from '../../../src/kernel/store/sqlite-checkpointer.js';

const pageSize = 4096;

async function sizeOf(path: string): Promise<number> {
  return (await stat(path).catch(() => ({ size: 0 }))).size;
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/** About 12 MB of rows (3000 pages), each write its own commit as the gateway's group commit would do. */
async function writeMuch(executor: SqliteExecutor): Promise<void> {
  await executor.run('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const body = 'x'.repeat(40_000);
  await Promise.all(Array.from({ length: 300 }, () => executor.run('INSERT INTO blobs (body) VALUES (?)', [body])));
}

describe('SQLite background WAL checkpoints', function () {
  this.timeout(30_000);
  let folder: string;
  let filename: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mediagate-checkpoints-'));
    filename = join(folder, 'store.sqlite');
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('copies committed pages into the database file from the thread, not from the committing connection', async () => {
    const errors: string[] = [];
    const executor = new SqliteExecutor(filename, { checkpoints: 'background', checkpointer: { intervalMs: 50, onError: (message) => errors.push(message) } });
    try {
      expect(executor.walAutocheckpointPages(), 'the serving connection keeps only the backstop').to.equal(defaultBackstopPages);
      await writeMuch(executor);
      const checkpointed = await until(async () => (await sizeOf(filename)) >= 3000 * pageSize * 0.9, 10_000);
      expect(checkpointed, 'the database file received the WAL pages').to.equal(true);
      expect(errors).to.deep.equal([]);
      expect(await executor.first<{ n: number }>('SELECT COUNT(*) AS n FROM blobs')).to.deep.equal({ n: 300 });
    } finally {
      await executor.close();
    }
  });

  it('keeps the WAL near its backstop under continuous writes', async () => {
    // A 2000-page (8 MB) backstop, so that 40 MB of writes cross it several times.
    const executor = new SqliteExecutor(filename, { checkpoints: 'background', checkpointer: { intervalMs: 50, backstopPages: 2000 } });
    try {
      const body = 'y'.repeat(40_000);
      await executor.run('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
      // About 40 MB written without a pause: the thread's PASSIVE checkpoints alone never let the WAL start over.
      let largest = 0;
      for (let round = 0; round < 20; round += 1) {
        await Promise.all(Array.from({ length: 50 }, () => executor.run('INSERT INTO blobs (body) VALUES (?)', [body])));
        largest = Math.max(largest, await sizeOf(`${filename}-wal`));
      }
      // Bounded, not exact: the serving connection checkpoints at the backstop, but while the thread's checkpoint holds
      // the WAL it cannot start over, and a round's 2 MB batch lands on top (seen once at 4,045 pages on a slow day).
      // Without the backstop the WAL would hold all 40 MB.
      const round = 50 * body.length;
      expect(largest, 'the WAL never held much more than the backstop').to.be.below(2 * 2000 * pageSize + round);
      expect(await sizeOf(filename), 'everything reached the database file').to.be.above(30 * 1024 * 1024);
    } finally {
      await executor.close();
    }
  });

  it('leaves SQLite its own checkpoints when asked to checkpoint inline (one-off CLI commands)', async () => {
    const executor = new SqliteExecutor(filename, { checkpoints: 'inline' });
    try {
      expect(executor.walAutocheckpointPages()).to.equal(1000);
      await writeMuch(executor);
      expect(await sizeOf(filename), 'the committing connection checkpointed at 1000 pages').to.be.above(1000 * pageSize);
    } finally {
      await executor.close();
    }
  });

  it('stops its thread on close, and the file stays readable', async () => {
    const executor = new SqliteExecutor(filename, { checkpoints: 'background' });
    await writeMuch(executor);
    await executor.close();
    const reader = new Database(filename, { readonly: true });
    try {
      expect(reader.prepare('SELECT COUNT(*) AS n FROM blobs').get()).to.deep.equal({ n: 300 });
    } finally {
      reader.close();
    }
  });
});
