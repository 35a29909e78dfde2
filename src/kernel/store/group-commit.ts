/**
 * Group commit: a COMMIT is the expensive part of a small write (a WAL append in SQLite, a redo-log fsync
 * in InnoDB), and the gateway makes two or three small writes per request — on MySQL all of them behind the
 * same account row lock. Transactions that arrive together are therefore run one after another inside ONE
 * database transaction, each under its own SAVEPOINT (a failing one rolls back only itself), and each caller
 * is answered only after that COMMIT: what a caller is told is durable is durable, the commit is shared.
 * If the shared COMMIT fails (a deadlock, a lost connection), every caller of the batch gets the error and
 * retries as it would have alone (see transient-retry.ts).
 *
 * A batch of one pays for no more than it needs: a lone transaction runs without a savepoint (its failure
 * rolls back everything there is), a lone statement runs on its own in autocommit. At low load, when
 * batches are small, that halves the round trips of each write. A batch of statements only (a worker's claims and
 * finishes) goes to a server database as one round trip with its COMMIT, where the database offers it
 * (`commitStatements`): a round trip per statement cost the worker more CPU than the statements did.
 */
import { MicroBatcher, type Outcome } from './micro-batcher.js';
import type { SqlExecutor } from './sql-executor.js';

/** A caller's transaction, or one statement, which needs no savepoint: a failing statement undoes only itself. */
type Work = { transaction: (tx: SqlExecutor) => Promise<unknown> } | { statement: BatchedStatement };

/** A lone statement of a batch, and what its caller is answered: `run`'s `changes`, or the rows it returns. */
export interface BatchedStatement {
  sql: string;
  params: unknown[];
  answer: 'changes' | 'rows';
}

/** Opens one real transaction around `body`: commits when it resolves, rolls back when it throws. */
export type OpenTransaction = (body: (tx: SqlExecutor) => Promise<void>) => Promise<void>;

/**
 * Runs statements and their COMMIT as one transaction in one round trip, answering each statement's `changes` or
 * rows in order; or undefined when any of them failed, with everything rolled back and nothing committed.
 */
export type CommitStatements = (statements: BatchedStatement[]) => Promise<unknown[] | undefined>;

export class GroupCommit {
  private readonly batcher: MicroBatcher<Work, unknown>;
  private readonly commitStatements: CommitStatements | undefined;

  /**
   * @param autocommit runs a statement outside any transaction (it commits by itself).
   * @param parallel batches open at once: 1 for SQLite (one writer anyway); a few on a server database,
   *   where writes that touch different rows need not wait for each other's commit.
   * @param commitStatements where the database can take a batch's statements and its COMMIT in one round trip (a
   *   server database; SQLite runs in the process and has no round trips to save): a batch made only of statements
   *   goes that way, and is run statement by statement, as any other batch, when one of them fails.
   */
  constructor(
    private readonly open: OpenTransaction,
    private readonly autocommit: SqlExecutor,
    options: { parallel?: number; maxBatch?: number; commitStatements?: CommitStatements } = {},
  ) {
    this.commitStatements = options.commitStatements;
    this.batcher = new MicroBatcher((batch) => this.runBatch(batch), options);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.batcher.submit({ transaction: work }) as Promise<T>;
  }

  /** One statement, batched like a transaction but without a savepoint of its own. */
  statement(sql: string, params: unknown[]): Promise<{ changes: number }> {
    return this.batcher.submit({ statement: { sql, params, answer: 'changes' } }) as Promise<{ changes: number }>;
  }

  /** One statement that answers a row (`UPDATE ... RETURNING`), batched like `statement`. */
  statementReturning<Row>(sql: string, params: unknown[]): Promise<Row | undefined> {
    return this.statementRows<Row>(sql, params).then((rows) => rows[0]);
  }

  /** One statement that answers rows (`INSERT ... RETURNING`), batched like `statement`. */
  statementRows<Row>(sql: string, params: unknown[]): Promise<Row[]> {
    return this.batcher.submit({ statement: { sql, params, answer: 'rows' } }) as Promise<Row[]>;
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    return this.batcher.idle();
  }

  private async runBatch(batch: Work[]): Promise<Outcome<unknown>[]> {
    if (batch.length === 1) {
      const [work] = batch;
      if (isStatement(work)) return [{ ok: true, value: await runStatement(this.autocommit, work.statement) }];
      let value: unknown;
      await this.open(async (tx) => {
        value = await work.transaction(tx);
      });
      return [{ ok: true, value }];
    }
    if (this.commitStatements && batch.every(isStatement)) {
      const answers = await this.commitStatements(batch.map((work) => work.statement));
      if (answers) return answers.map((value) => ({ ok: true, value }));
    }
    const outcomes: Outcome<unknown>[] = [];
    await this.open(async (tx) => {
      for (const work of batch) {
        if (isStatement(work)) {
          try {
            outcomes.push({ ok: true, value: await runStatement(tx, work.statement) });
          } catch (error) {
            if (!isStatementError(error)) throw error;
            outcomes.push({ ok: false, error });
          }
          continue;
        }
        await tx.run('SAVEPOINT unit');
        try {
          outcomes.push({ ok: true, value: await work.transaction(tx) });
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
    return outcomes;
  }
}

function isStatement(work: Work): work is { statement: BatchedStatement } {
  return 'statement' in work;
}

function runStatement(tx: SqlExecutor, { sql, params, answer }: BatchedStatement): Promise<unknown> {
  return answer === 'changes' ? tx.run(sql, params) : tx.all(sql, params);
}

/**
 * Errors that undo only the failing statement (a duplicate key, a constraint): the batch goes on.
 * Anything else (deadlock, lost connection) has taken the transaction with it.
 */
function isStatementError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  return code.startsWith('SQLITE_CONSTRAINT') || code === 'ER_DUP_ENTRY' || code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_ROW_IS_REFERENCED_2' || code === 'ER_DATA_TOO_LONG' || code === 'ER_BAD_NULL_ERROR';
}
