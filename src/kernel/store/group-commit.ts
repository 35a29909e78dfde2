/**
 * Group commit: a COMMIT is the expensive part of a small write (a WAL append in SQLite, a redo-log fsync
 * in InnoDB), and the gateway makes two or three small writes per request — on MySQL all of them behind the
 * same account row lock. Transactions that arrive together are therefore run one after another inside ONE
 * database transaction, each under its own SAVEPOINT (a failing one rolls back only itself), and each caller
 * is answered only after that COMMIT: what a caller is told is durable is durable, the commit is shared.
 * If the shared COMMIT fails (a deadlock, a lost connection), every caller of the batch gets the error and
 * retries as it would have alone (see transient-retry.ts).
 */
import type { SqlExecutor } from './sql-executor.js';

interface PendingWork {
  work: (tx: SqlExecutor) => Promise<unknown>;
  /** One statement needs no savepoint: a failing statement undoes only itself. */
  single: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Opens one real transaction around `body`: commits when it resolves, rolls back when it throws. */
export type OpenTransaction = (body: (tx: SqlExecutor) => Promise<void>) => Promise<void>;

export class GroupCommit {
  private readonly pending: PendingWork[] = [];
  private readonly drains = new Set<Promise<void>>();

  /**
   * @param parallel batches open at once: 1 for SQLite (one writer anyway); a few on a server database,
   *   where writes that touch different rows need not wait for each other's commit.
   */
  constructor(
    private readonly open: OpenTransaction,
    private readonly options: { parallel?: number; maxBatch?: number } = {},
  ) {}

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.enqueue(work, false);
  }

  /** One statement, batched like a transaction but without a savepoint of its own. */
  statement(sql: string, params: unknown[]): Promise<{ changes: number }> {
    return this.enqueue((tx) => tx.run(sql, params), true);
  }

  /** Resolves when nothing is queued or running. */
  async idle(): Promise<void> {
    while (this.drains.size > 0) await Promise.all(this.drains);
  }

  private enqueue<T>(work: (tx: SqlExecutor) => Promise<T>, single: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, single, resolve: resolve as (value: unknown) => void, reject });
      if (this.drains.size < (this.options.parallel ?? 1)) {
        const drain: Promise<void> = this.drain().finally(() => this.drains.delete(drain));
        this.drains.add(drain);
      }
    });
  }

  private async drain(): Promise<void> {
    // Let the writes of this tick gather before the first batch opens.
    await new Promise((resolve) => setImmediate(resolve));
    const maxBatch = this.options.maxBatch ?? 128;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, maxBatch);
      const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
      try {
        await this.open(async (tx) => {
          for (const item of batch) {
            if (item.single) {
              try {
                outcomes.push({ ok: true, value: await item.work(tx) });
              } catch (error) {
                if (!isStatementError(error)) throw error;
                outcomes.push({ ok: false, error });
              }
              continue;
            }
            await tx.run('SAVEPOINT unit');
            try {
              outcomes.push({ ok: true, value: await item.work(tx) });
              await tx.run('RELEASE SAVEPOINT unit');
            } catch (error) {
              try {
                await tx.run('ROLLBACK TO SAVEPOINT unit');
                await tx.run('RELEASE SAVEPOINT unit');
              } catch {
                // The whole transaction is gone (InnoDB rolls back everything on a deadlock; the connection
                // may be lost): fail the batch with the cause, which callers know how to retry.
                throw error;
              }
              outcomes.push({ ok: false, error });
            }
          }
        });
      } catch (error) {
        batch.forEach((item) => item.reject(error));
        continue;
      }
      batch.forEach((item, index) => {
        const outcome = outcomes[index];
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.error);
      });
    }
  }
}

/**
 * Errors that undo only the failing statement (a duplicate key, a constraint): the batch goes on.
 * Anything else (deadlock, lost connection) has taken the transaction with it.
 */
function isStatementError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  return code.startsWith('SQLITE_CONSTRAINT') || code === 'ER_DUP_ENTRY' || code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_ROW_IS_REFERENCED_2' || code === 'ER_DATA_TOO_LONG' || code === 'ER_BAD_NULL_ERROR';
}
