import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SqliteExecutor } from '../../../src/kernel/store/sqlite-executor.js';
import { describeStoreContract } from './store-contract.js';
import { describePeopleStoreContract } from './people-store-contract.js';

describeStoreContract('SQLite (better-sqlite3, WAL)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mediagate-store-'));
  return { url: `sqlite:${join(dir, 'store.sqlite')}`, cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describePeopleStoreContract('SQLite (better-sqlite3, WAL)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mediagate-people-'));
  return { url: `sqlite:${join(dir, 'store.sqlite')}`, cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describe('SQLite executor: UPDATE ... RETURNING', () => {
  let dir: string;
  let executor: SqliteExecutor;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mediagate-returning-'));
    executor = new SqliteExecutor(join(dir, 'store.sqlite'));
    await executor.run('CREATE TABLE jobs (id TEXT PRIMARY KEY, owner TEXT, attempts INTEGER NOT NULL)');
    await executor.run("INSERT INTO jobs (id, owner, attempts) VALUES ('a', NULL, 0), ('b', NULL, 0)");
  });
  afterEach(async () => {
    await executor.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the updated row, or nothing when the UPDATE matched none', async () => {
    const claim = (id: string, owner: string) =>
      executor.updateReturning('UPDATE jobs SET owner = ?, attempts = attempts + 1 WHERE id = ? AND owner IS NULL RETURNING *', [owner, id]);
    expect(await claim('a', 'w1')).to.deep.equal({ id: 'a', owner: 'w1', attempts: 1 });
    expect(await claim('a', 'w2')).to.equal(undefined);
    expect(await claim('missing', 'w2')).to.equal(undefined);
  });

  it('answers once its batch is committed: another connection reads the update at that moment', async () => {
    const other = new Database(join(dir, 'store.sqlite'), { readonly: true });
    const ownerSeenByOther = (id: string) => (other.prepare('SELECT owner FROM jobs WHERE id = ?').get(id) as { owner: string | null }).owner;
    try {
      // Submitted together, so they share one batch (one BEGIN ... COMMIT).
      const [first] = await Promise.all([
        executor.updateReturning('UPDATE jobs SET owner = ? WHERE id = ? RETURNING owner', ['w1', 'a']).then((row) => ({ row, seen: ownerSeenByOther('a') })),
        executor.run('UPDATE jobs SET owner = ? WHERE id = ?', ['w2', 'b']),
        executor.updateReturning('UPDATE jobs SET owner = ? WHERE id = ? AND owner IS NULL RETURNING owner', ['w3', 'a']),
      ]);
      expect(first).to.deep.equal({ row: { owner: 'w1' }, seen: 'w1' });
      expect(ownerSeenByOther('b')).to.equal('w2');
    } finally {
      other.close();
    }
  });
});
