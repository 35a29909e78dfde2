export * from './records.js';
export { RequestStore, admittedRow, recordedTaskRow, type NewRequest, type Executor, type BacklogGroup, type KnownRow, type TaskUpdate, type WaitingPoll } from './request-store.js';
export { AccountStore, type LedgerKind, type LedgerEntry } from './account-store.js';
export { RequestAdmissions, type Admission, type AdmissionResult } from './request-admissions.js';
export { IdempotencyStore, type IdempotencyRecord } from './idempotency-store.js';
export { openDatabase, migrateToLatest, type Database, type DatabaseDialect } from './open-database.js';
export { newId } from './ids.js';
export { withTransientRetry, isTransientDatabaseError, isDuplicateKeyError } from './transient-retry.js';
export type { SqlDatabase, SqlExecutor } from './sql-executor.js';
