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

  /** 20 rounds of 50 rows of 40 KB (about 40 MB, 10,000 pages) without a pause; the WAL file's size after each round. */
  async function writeContinuously(executor: SqliteExecutor): Promise<number[]> {
    const body = 'y'.repeat(40_000);
    await executor.run('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const sizes: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      await Promise.all(Array.from({ length: 50 }, () => executor.run('INSERT INTO blobs (body) VALUES (?)', [body])));
      sizes.push(await sizeOf(`${filename}-wal`));
    }
    return sizes;
  }
  const backstopPages = 2000;
  const roundBytes = 50 * 40_000;

  it('bounds the WAL at its backstop when no thread checkpoints (the second connection of a process)', async () => {
    // 'elsewhere' is the backstop alone: the connection's own checkpoint at 2,000 pages copies everything, and the
    // next write starts the WAL over. Without the backstop the WAL would hold all 40 MB.
    const executor = new SqliteExecutor(filename, { checkpoints: 'elsewhere', checkpointer: { backstopPages } });
    try {
      const sizes = await writeContinuously(executor);
      // One batch can land on top of the backstop before the commit that crosses it checkpoints.
      expect(Math.max(...sizes), 'the WAL never held more than the backstop and one batch').to.be.below(backstopPages * pageSize + roundBytes);
      expect(await sizeOf(filename), 'everything reached the database file').to.be.above(30 * 1024 * 1024);
    } finally {
      await executor.close();
    }
  });

  it('starts the WAL over under continuous writes while the thread checkpoints too', async () => {
    // The thread's PASSIVE checkpoints alone never let the WAL start over under continuous writes; the serving
    // connection's backstop does, and journal_size_limit then gives the file back. How far above the backstop the
    // WAL gets first is the machine's: while the thread's checkpoint fsyncs, the serving connection's cannot run
    // (a slow CI disk once let it reach 6,067 pages), so this asserts that it starts over, not a size.
    const executor = new SqliteExecutor(filename, { checkpoints: 'background', checkpointer: { intervalMs: 50, backstopPages } });
    let sizes: number[];
    try {
      sizes = await writeContinuously(executor);
    } finally {
      await executor.close();
    }
    // Crossing the backstop grows the file past journal_size_limit, and starting over cuts it back to that limit; a
    // thread that kept up would start it over below the limit instead, where the file stays the backstop's size.
    const shrank = sizes.some((size, round) => round > 0 && size < sizes[round - 1]!);
    const startedOver = shrank || Math.max(...sizes) <= backstopPages * pageSize + roundBytes;
    expect(startedOver, `the WAL started over at least once (sizes ${sizes.join(', ')})`).to.equal(true);
    expect(Math.max(...sizes), 'the WAL never held everything written').to.be.below(20 * roundBytes);
    // Read once closed: how much of the last rounds the thread's PASSIVE checkpoint has copied at any one moment is the
    // disk's (a slow CI disk once left 29.3 MB of the 40 in the file); the last connection's close copies the rest.
    expect(await sizeOf(filename), 'everything reached the database file').to.be.above(38 * 1024 * 1024);
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
