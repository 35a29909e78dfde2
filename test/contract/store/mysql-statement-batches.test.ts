/**
 * A group-commit batch made only of statements (a worker's claims and finishes) reaches MariaDB as one text with its
 * COMMIT: one round trip instead of one per statement, each statement answered as it would be alone, a failing one
 * answered alone too, and values escaped so that whatever a row holds stays a value.
 */
import { expect } from 'chai';
import { MysqlExecutor } from '../../../src/kernel/store/mysql-executor.js';
import { createProxiedTestDatabase } from '../../support/mariadb.js';
import type { TcpProxy } from '../../support/tcp-proxy.js';

/** What a promise settled with, as an outcome (a batch answers some callers and fails others). */
function settled<T>(promise: Promise<T>): Promise<{ value?: T; error?: { code?: string } }> {
  return promise.then(
    (value) => ({ value }),
    (error: { code?: string }) => ({ error }),
  );
}

describe('MySQL executor: a batch of statements in one round trip (MariaDB)', () => {
  let executor: MysqlExecutor;
  let proxy: TcpProxy;
  let drop: () => Promise<void>;

  before(async function () {
    const database = await createProxiedTestDatabase(this);
    ({ proxy, drop } = database);
    executor = new MysqlExecutor(database.proxiedUrl, { poolMax: 1 });
    await executor.run('CREATE TABLE items (id varchar(40) PRIMARY KEY, note mediumtext, count int NOT NULL DEFAULT 0)');
    await executor.run('INSERT INTO items (id, count) VALUES (?, ?), (?, ?), (?, ?)', ['a', 0, 'b', 0, 'c', 0]);
    // Opens a transaction connection (its session setup is no batch's round trip) and asks the server's version once.
    await executor.transaction((tx) => tx.first('SELECT 1'));
    await executor.run('CREATE TABLE warm_up (id varchar(40) PRIMARY KEY)');
    expect(await executor.insertReturning('INSERT INTO warm_up (id) VALUES (?) RETURNING id', ['once'])).to.deep.equal([{ id: 'once' }]);
  });
  after(async () => {
    await executor?.close();
    await drop?.();
  });

  it('sends the statements of one turn and their COMMIT as one write, each answered with its own changes or rows', async () => {
    const before = proxy.chunksToService();
    const answers = await Promise.all([
      executor.run('UPDATE items SET count = count + 1 WHERE id = ?', ['a']),
      executor.run('UPDATE items SET count = count + 1 WHERE id = ?', ['absent']),
      executor.run('UPDATE items SET count = count + 2 WHERE id IN (?, ?)', ['b', 'c']),
      executor.insertReturning('INSERT INTO items (id, count) VALUES (?, ?) ON DUPLICATE KEY UPDATE count = count + 10 RETURNING id, count', ['a', 0]),
      executor.run('INSERT INTO items (id, note) VALUES (?, ?)', ['d', 'new']),
    ]);
    const writes = proxy.chunksToService() - before;
    expect(answers).to.deep.equal([{ changes: 1 }, { changes: 0 }, { changes: 2 }, [{ id: 'a', count: 11 }], { changes: 1 }]);
    // Statement by statement it is five executes and a COMMIT (six writes at least).
    expect(writes, 'writes to the server for the batch').to.equal(1);
    expect(await executor.all('SELECT id, note, count FROM items ORDER BY id')).to.deep.equal([
      { id: 'a', note: null, count: 11 },
      { id: 'b', note: null, count: 2 },
      { id: 'c', note: null, count: 2 },
      { id: 'd', note: 'new', count: 0 },
    ]);
  });

  it('answers a failing statement alone: the others of its batch are committed, nothing of it is', async () => {
    const outcomes = await Promise.all([
      settled(executor.run('UPDATE items SET count = count + 1 WHERE id = ?', ['a'])),
      settled(executor.run('INSERT INTO items (id, note) VALUES (?, ?)', ['d', 'a duplicate'])),
      settled(executor.run('INSERT INTO items (id, note) VALUES (?, ?)', ['e', 'after the failure'])),
    ]);
    expect(outcomes[0]).to.deep.equal({ value: { changes: 1 } });
    expect(outcomes[1].error?.code).to.equal('ER_DUP_ENTRY');
    expect(outcomes[2]).to.deep.equal({ value: { changes: 1 } });
    expect(await executor.all('SELECT id, note, count FROM items WHERE id IN (?, ?, ?) ORDER BY id', ['a', 'd', 'e'])).to.deep.equal([
      { id: 'a', note: null, count: 12 },
      { id: 'd', note: 'new', count: 0 },
      { id: 'e', note: 'after the failure', count: 0 },
    ]);
    // The connection that rolled the failed text back serves the next batch.
    expect(await Promise.all([executor.run('UPDATE items SET count = 0 WHERE id = ?', ['a']), executor.run('UPDATE items SET count = 0 WHERE id = ?', ['e'])])).to.deep.equal([
      { changes: 1 },
      { changes: 1 },
    ]);
  });

  it('keeps every value a value: quotes, backslashes, statement separators, NULL, unicode and 13-digit milliseconds', async () => {
    const notes = ["it's", 'back\\slash \\\' \\"', "x'); DROP TABLE items; -- ", 'semi;colon\nnewline', '😀 ünïcødé \u0000 nul', undefined];
    const before = proxy.chunksToService();
    await Promise.all(notes.map((note, index) => executor.run('INSERT INTO items (id, note, count) VALUES (?, ?, ?)', [`escape-${index}`, note, 1_732_406_400 + index])));
    expect(proxy.chunksToService() - before).to.equal(1);
    const rows = await executor.all<{ id: string; note: string | null; count: number }>("SELECT id, note, count FROM items WHERE id LIKE 'escape-%' ORDER BY id");
    expect(rows.map((row) => row.note)).to.deep.equal([...notes.slice(0, 5), null]);
    expect(rows.map((row) => row.count)).to.deep.equal(notes.map((_, index) => 1_732_406_400 + index));
    expect((await executor.all('SELECT id FROM items')).length, 'the table is still there').to.be.greaterThan(5);
  });

  it('sends the statements a transaction issues together as one write, each answered with its own result', async () => {
    const before = proxy.chunksToService();
    const answers = await executor.transaction((tx) =>
      Promise.all([
        tx.run('INSERT INTO items (id, note) VALUES (?, ?), (?, ?)', ['together-1', 'one', 'together-2', 'two']),
        tx.run('UPDATE items SET count = count + 5 WHERE id IN (?, ?)', ['together-1', 'absent']),
        tx.all('SELECT id, count FROM items WHERE id LIKE ? ORDER BY id', ['together-%']),
      ]),
    );
    // The three statements in one write, then the COMMIT in another (statement by statement: four).
    expect(proxy.chunksToService() - before, 'writes to the server for the transaction').to.equal(2);
    expect(answers).to.deep.equal([
      { changes: 2 },
      { changes: 1 },
      [
        { id: 'together-1', count: 5 },
        { id: 'together-2', count: 0 },
      ],
    ]);
  });

  it('fails a transaction whose statements issued together meet a failing one, and rolls it back whole', async () => {
    const failing = executor.transaction((tx) =>
      Promise.all([
        tx.run('UPDATE items SET count = 100 WHERE id = ?', ['together-1']),
        tx.run('INSERT INTO items (id) VALUES (?)', ['together-2']),
        tx.run('INSERT INTO items (id) VALUES (?)', ['together-3']),
      ]),
    );
    expect((await settled(failing)).error?.code).to.equal('ER_DUP_ENTRY');
    expect(await executor.all("SELECT id, count FROM items WHERE id LIKE 'together-%' ORDER BY id")).to.deep.equal([
      { id: 'together-1', count: 5 },
      { id: 'together-2', count: 0 },
    ]);
  });

  it('sends a batch too long for one text statement by statement, with the same answers', async () => {
    const long = 'x'.repeat(400 * 1024);
    const before = proxy.chunksToService();
    const answers = await Promise.all([0, 1, 2].map((index) => executor.run('UPDATE items SET note = ? WHERE id = ?', [long, `escape-${index}`])));
    expect(answers).to.deep.equal([{ changes: 1 }, { changes: 1 }, { changes: 1 }]);
    // Three statements and a COMMIT, each its own write (a long one may arrive in several chunks).
    expect(proxy.chunksToService() - before).to.be.at.least(4);
    expect((await executor.all<{ size: number }>("SELECT LENGTH(note) AS size FROM items WHERE id IN ('escape-0', 'escape-1', 'escape-2')")).map((row) => Number(row.size))).to.deep.equal([
      long.length,
      long.length,
      long.length,
    ]);
  });
});
