import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeOAuthStoreContract } from './oauth-store-contract.js';

describeOAuthStoreContract('SQLite (better-sqlite3, WAL)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mediagate-oauth-'));
  return { url: `sqlite:${join(dir, 'store.sqlite')}`, cleanup: () => rm(dir, { recursive: true, force: true }) };
});
