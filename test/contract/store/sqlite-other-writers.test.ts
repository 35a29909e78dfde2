/**
 * A SQLite connection that shares its file with another writer of the same process (the embedded worker thread and
 * its main thread, `otherWriters`): while the other holds the write lock, a write waits without blocking its
 * thread (timers fire, reads answer) and goes through once the lock is free; a lone statement and a transaction
 * alike. SQLite's own busy handler would put the whole thread to sleep instead.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteExecutor } from '../../../src/kernel/store/sqlite-executor.js';

describe('SQLite writes beside another writer of the same process', function () {
  let folder: string;
  let executor: SqliteExecutor;
  let other: Database.Database;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mediagate-writers-'));
    const filename = join(folder, 'store.sqlite');
    executor = new SqliteExecutor(filename, { otherWriters: true });
    await executor.run('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    await executor.run("INSERT INTO items (name) VALUES ('first')");
    other = new Database(filename);
    other.pragma('busy_timeout = 5000');
  });
  afterEach(async () => {
    other.close();
    await executor.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** Holds the write lock on the other connection for `ms`, released on a timer of this thread. */
  const holdLock = (ms: number) => {
    other.prepare('BEGIN IMMEDIATE').run();
    other.prepare("INSERT INTO items (name) VALUES ('other')").run();
    return new Promise<void>((resolve) => setTimeout(() => (other.prepare('COMMIT').run(), resolve()), ms));
  };

  for (const [kind, write] of [
    ['a lone statement', (executor: SqliteExecutor) => executor.run("INSERT INTO items (name) VALUES ('mine')")],
    ['a transaction', (executor: SqliteExecutor) => executor.transaction(async (tx) => tx.run("INSERT INTO items (name) VALUES ('mine')"))],
  ] as const) {
    it(`waits for the lock without blocking the thread: ${kind}`, async () => {
      const released = holdLock(150);
      const began = performance.now();
      let ticks = 0;
      const ticker = setInterval(() => (ticks += 1), 10);
      const written = write(executor);
      // Reads go on meanwhile: they need no lock (WAL), and see what is committed.
      expect(await executor.all('SELECT name FROM items ORDER BY id')).to.deep.equal([{ name: 'first' }]);
      await written;
      clearInterval(ticker);
      await released;
      // The lock was released by a timer of this very thread: the write could only go through because the thread
      // kept running while it waited (a sleeping busy handler would have failed it after 5 s, the timer unfired).
      expect(performance.now() - began).to.be.below(4_000);
      expect(ticks).to.be.at.least(5);
      expect((await executor.all<{ name: string }>('SELECT name FROM items ORDER BY id')).map((row) => row.name)).to.deep.equal(['first', 'other', 'mine']);
    });
  }
});
