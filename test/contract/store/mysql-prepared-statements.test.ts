/**
 * The MySQL executor sends a statement with a fixed text as a server-side prepared statement (parsed once per
 * connection) and a text built for its row or id count as text; values come back the same either way.
 */
import { expect } from 'chai';
import { MysqlExecutor } from '../../../src/kernel/store/mysql-executor.js';
import { sendStatement, type StatementRunner } from '../../../src/kernel/store/mysql-statements.js';
import { createTestDatabase } from '../../support/mariadb.js';

/** What a promise rejected with; undefined if it resolved. */
async function rejection(promise: Promise<unknown>): Promise<Error | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

describe('MySQL executor: prepared statements (MariaDB)', () => {
  let executor: MysqlExecutor;
  let drop: () => Promise<void>;

  before(async function () {
    const database = await createTestDatabase(this);
    drop = database.drop;
    // One connection, so the session counters below are the executor's own statements.
    executor = new MysqlExecutor(database.url, { poolMax: 1 });
    await executor.run('CREATE TABLE items (id varchar(40) PRIMARY KEY, at_ms bigint, note text, count int NOT NULL DEFAULT 0)');
  });
  after(async () => {
    await executor?.close();
    await drop?.();
  });

  /** The session's prepare and execute counters (the SHOW itself is one of each). */
  const counters = async () => {
    const rows = await executor.all<{ Variable_name: string; Value: string }>("SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_prepare', 'Com_stmt_execute')");
    return Object.fromEntries(rows.map((row) => [row.Variable_name, Number(row.Value)]));
  };

  it('prepares a fixed text once per connection and executes it every time', async () => {
    const before = await counters();
    for (let index = 0; index < 5; index += 1) await executor.run('INSERT INTO items (id, at_ms, note) VALUES (?, ?, ?)', [`fixed-${index}`, 1_700_000_000_000 + index, `note ${index}`]);
    const after = await counters();
    // The INSERT's text prepared once (the SHOW was prepared by the first read); five INSERTs and one SHOW executed.
    expect({ prepared: after.Com_stmt_prepare - before.Com_stmt_prepare, executed: after.Com_stmt_execute - before.Com_stmt_execute }).to.deep.equal({ prepared: 1, executed: 6 });
  });

  it('sends multi-row VALUES and IN lists as text, with the same results', async () => {
    const before = await counters();
    await executor.run('INSERT INTO items (id, at_ms) VALUES (?, ?), (?, ?), (?, ?)', ['many-0', 1, 'many-1', 2, 'many-2', 3]);
    const rows = await executor.all<{ id: string }>('SELECT id FROM items WHERE id IN (?, ?, ?) ORDER BY id', ['many-0', 'many-2', 'absent']);
    const after = await counters();
    expect(rows.map((row) => row.id)).to.deep.equal(['many-0', 'many-2']);
    expect({ prepared: after.Com_stmt_prepare - before.Com_stmt_prepare, executed: after.Com_stmt_execute - before.Com_stmt_execute }).to.deep.equal({ prepared: 0, executed: 1 });
  });

  it('binds undefined as NULL, keeps 13-digit milliseconds exact, and counts matched rows as changes', async () => {
    await executor.run('INSERT INTO items (id, at_ms, note) VALUES (?, ?, ?)', ['values', 1_732_406_400_123, undefined]);
    expect(await executor.first('SELECT id, at_ms, note, count FROM items WHERE id = ? AND at_ms >= ?', ['values', 1_732_406_400_123])).to.deep.equal({
      id: 'values',
      at_ms: 1_732_406_400_123,
      note: null,
      count: 0,
    });
    expect(await executor.run('UPDATE items SET count = count + ? WHERE id = ?', [2, 'values'])).to.deep.equal({ changes: 1 });
    // Matched, not changed: the same value again still counts the row (FOUND_ROWS).
    expect(await executor.run('UPDATE items SET count = ? WHERE id = ?', [2, 'values'])).to.deep.equal({ changes: 1 });
    expect(await executor.run('UPDATE items SET count = ? WHERE id = ?', [2, 'absent'])).to.deep.equal({ changes: 0 });
  });

  it('prepares inside a transaction too, and rolls back what a failing one wrote', async () => {
    await executor.transaction(async (tx) => tx.run('UPDATE items SET note = ? WHERE id = ?', ['in a transaction', 'values']));
    const failing = executor.transaction(async (tx) => {
      await tx.run('UPDATE items SET note = ? WHERE id = ?', ['rolled back', 'values']);
      await tx.run('INSERT INTO items (id) VALUES (?)', ['values']);
    });
    expect(await rejection(failing)).to.be.instanceOf(Error);
    expect((await executor.first<{ note: string }>('SELECT note FROM items WHERE id = ?', ['values']))!.note).to.equal('in a transaction');
  });

  it('runs a transaction without a BEGIN, on a connection whose session has autocommit off, whole or not at all', async () => {
    const session = async (tx: { all: MysqlExecutor['all'] }): Promise<{ Com_begin: number; Com_commit: number }> => {
      const rows = await tx.all<{ Variable_name: string; Value: string }>("SHOW SESSION STATUS WHERE Variable_name IN ('Com_begin', 'Com_commit')");
      const count = (name: string) => Number(rows.find((row) => row.Variable_name === name)?.Value);
      return { Com_begin: count('Com_begin'), Com_commit: count('Com_commit') };
    };
    const first = await executor.transaction(async (tx) => ({ autocommit: (await tx.first<{ autocommit: number }>('SELECT @@autocommit AS autocommit'))!.autocommit, ...(await session(tx)) }));
    const second = await executor.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, note) VALUES (?, ?)', ['no-begin', 'committed']);
      return session(tx);
    });
    expect(first.autocommit, 'a transaction connection').to.equal(0);
    expect(second.Com_begin, 'no BEGIN sent since the first').to.equal(first.Com_begin);
    expect(second.Com_commit, 'the first one committed').to.equal(first.Com_commit + 1);
    expect((await executor.first<{ autocommit: number }>('SELECT @@autocommit AS autocommit'))!.autocommit, 'a statement connection').to.equal(1);
    expect(await executor.first('SELECT note FROM items WHERE id = ?', ['no-begin'])).to.deep.equal({ note: 'committed' });

    const failing = executor.transaction(async (tx) => {
      await tx.run('UPDATE items SET note = ? WHERE id = ?', ['rolled back', 'no-begin']);
      await tx.run('INSERT INTO items (id) VALUES (?)', ['no-begin']);
    });
    expect(await rejection(failing)).to.be.instanceOf(Error);
    expect(await executor.first('SELECT note FROM items WHERE id = ?', ['no-begin']), 'rolled back as a whole').to.deep.equal({ note: 'committed' });
  });
});

describe('MySQL executor: when the server holds too many prepared statements', () => {
  /** A stand-in for a pool that records how each statement was sent. */
  const runner = (execute: () => Promise<unknown>) => {
    const sent: string[] = [];
    const stand: StatementRunner = {
      query: (async (sql: string) => (sent.push(`query ${sql}`), [[{ via: 'text' }], []])) as unknown as StatementRunner['query'],
      execute: (async (sql: string) => (sent.push(`execute ${sql}`), [await execute(), []])) as unknown as StatementRunner['execute'],
    };
    return { stand, sent };
  };

  it('sends the statement as text when the server refuses to prepare another (ER_MAX_PREPARED_STMT_COUNT_REACHED)', async () => {
    const { stand, sent } = runner(() => Promise.reject(Object.assign(new Error("Can't create more than max_prepared_stmt_count statements"), { errno: 1461 })));
    expect(await sendStatement(stand, 'SELECT 1 FROM items WHERE id = ?', ['a'])).to.deep.equal([{ via: 'text' }]);
    expect(sent).to.deep.equal(['execute SELECT 1 FROM items WHERE id = ?', 'query SELECT 1 FROM items WHERE id = ?']);
  });

  it('passes any other failure on, without a second try', async () => {
    const { stand, sent } = runner(() => Promise.reject(Object.assign(new Error('Deadlock found'), { errno: 1213 })));
    expect((await rejection(sendStatement(stand, 'UPDATE items SET count = 1 WHERE id = ?', ['a'])))?.message).to.equal('Deadlock found');
    expect(sent).to.deep.equal(['execute UPDATE items SET count = 1 WHERE id = ?']);
  });
});
