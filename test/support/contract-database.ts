/**
 * A fresh, migrated database for one contract suite: opened in the suite's `before` hook (from the adapter's
 * `open`, which creates a throwaway SQLite file or MariaDB database) and closed and dropped in its `after`.
 */
import { migrateToLatest, openDatabase, type Database } from '../../src/kernel/store/index.js';

export type OpenContractDatabase = (context: Mocha.Context) => Promise<{ url: string; cleanup(): Promise<void> }>;

/** Call inside `describe`, before the suite's own hooks; the returned function gives the open database. */
export function useMigratedDatabase(open: OpenContractDatabase, options: { poolMax?: number } = {}): () => Database {
  let database: Database | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  before(async function () {
    const opened = await open(this);
    cleanup = opened.cleanup;
    database = openDatabase(opened.url, { poolMax: options.poolMax ?? 4 });
    await migrateToLatest(database);
  });
  after(async () => {
    await database?.close();
    await cleanup?.();
  });
  return () => {
    if (!database) throw new Error('the contract database is not open yet (use it inside hooks and tests)');
    return database;
  };
}
