import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
