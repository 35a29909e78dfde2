/**
 * The production topology with real processes and real services: two API processes and two workers on
 * MariaDB + RabbitMQ. Workers are killed with SIGKILL mid-request and RabbitMQ is restarted under load;
 * every accepted request still reaches a terminal state exactly once, and the ledger balances after each.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { allTools } from '../../src/mcp/tools/index.js';
import { api, ProcessTopology, waitForTerminal, type ManagedProcess } from '../support/process-topology.js';

describe('production topology: 2 api + 2 workers on MariaDB + RabbitMQ', function () {
  this.timeout(240_000);
  let topology: ProcessTopology;
  let key: string;
  let apis: ManagedProcess[];
  let workers: ManagedProcess[];

  before(async function () {
    topology = await ProcessTopology.create(this);
    key = await topology.createKey(1_000_000);
    apis = [await topology.start('api'), await topology.start('api')];
    workers = [await topology.start('worker'), await topology.start('worker')];
  });
  after(async () => topology?.stop());

  async function expectBalancedLedger() {
    const ledger = await topology.ledger();
    expect(ledger.doubleEntries, 'no request debited or refunded twice').to.equal(0);
    expect(ledger.nonTerminal, 'nothing left queued or processing').to.equal(0);
    expect(ledger.charged, 'debits minus refunds equal the billable credits of non-failed requests').to.equal(ledger.billableOfNonFailed);
  }

  /** Polls `check` every `everyMs` until it holds; fails naming `what` after `deadlineMs`. */
  async function pollUntil(deadlineMs: number, what: string, check: () => Promise<boolean>, everyMs = 20): Promise<void> {
    const until = Date.now() + deadlineMs;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  async function create(base: string, input: Record<string, unknown>): Promise<string> {
    const response = await api(base, key, 'POST', '/api/v1/requests', { operation: 'test.echo', input });
    expect(response.status, JSON.stringify(response.body)).to.equal(202);
    return response.body.id;
  }

  it('serves MCP on every API process: a generation created through one is polled through the other', async () => {
    const connect = async (base: string) => {
      const client = new Client({ name: 'topology-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      return client;
    };
    const [first, second] = [await connect(apis[0].url), await connect(apis[1].url)];
    try {
      for (const client of [first, second]) expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal(allTools.map((tool) => tool.name));
      const created = await first.callTool({ name: 'create_generation_request', arguments: { operation: 'test.echo', input: { message: 'over mcp' }, confirmed: true, max_credits: 2 } });
      expect(created.isError ?? false, JSON.stringify(created.content)).to.equal(false);
      const id = (created.structuredContent as { id: string }).id;
      await waitForTerminal(apis[1].url, key, [id], 30_000);
      const polled = await second.callTool({ name: 'get_generation_request', arguments: { id } });
      expect(polled.structuredContent).to.include({ id, status: 'succeeded' });
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('serves a request created on one API process and polled on the other; API processes run no provider work', async () => {
    const id = await create(apis[0].url, { message: 'shared', script: { pending: 2 } });
    const done = await waitForTerminal(apis[1].url, key, [id], 30_000);
    expect(done.get(id).status).to.equal('succeeded');
    for (const process of apis) {
      const metrics = await (await fetch(`${process.url}/metrics`)).text();
      expect(metrics).to.not.match(/mediagate_provider_calls_total\{[^}]*\} [1-9]/);
    }
    const workerMetrics = await Promise.all(workers.map(async (process) => (await fetch(`${process.url}/metrics`)).text()));
    expect(workerMetrics.join('\n')).to.match(/mediagate_provider_calls_total\{provider="scripted",call="start",outcome="ok"\} [1-9]/);
    const health = await (await fetch(`${apis[0].url}/healthz`)).json();
    expect(health).to.deep.include({ ok: true, role: 'api' });
    expect(health.checks).to.deep.equal({ database: { ok: true }, queue: { ok: true } });
    await expectBalancedLedger();
  });

  it('finishes requests whose worker is killed while it holds them in a provider call (claimed phase)', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, index) => create(apis[index % 2].url, { message: `slow-${index}`, script: { start_delay_ms: 2500 } })));
    await new Promise((resolve) => setTimeout(resolve, 800));
    await topology.kill(workers[0]);
    workers[0] = await topology.start('worker');
    const results = await waitForTerminal(apis[0].url, key, ids, 60_000);
    for (const id of ids) expect(results.get(id).status, id).to.equal('succeeded');
    await expectBalancedLedger();
  });

  it('resumes polling vendor tasks whose worker is killed between polls (submitted phase)', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, index) => create(apis[index % 2].url, { message: `pending-${index}`, script: { pending: 15 } })));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await topology.kill(workers[1]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await topology.kill(workers[0]);
    workers[0] = await topology.start('worker');
    workers[1] = await topology.start('worker');
    const results = await waitForTerminal(apis[1].url, key, ids, 60_000);
    for (const id of ids) expect(results.get(id).status, id).to.equal('succeeded');
    await expectBalancedLedger();
  });

  it('settles exactly once a request whose worker is killed inside its finishing transaction (finishing phase)', async () => {
    // The vendor fails each request, so the finish is the refunding transaction (terminal UPDATE, credit, ledger
    // entry); a success with nothing to settle is one statement and has no inside to be killed in. Each start call
    // ends before the first lease heartbeat (lease / 3 = 666 ms), so after the claim the finish is the only write
    // a worker makes to the row. The delays differ so that two finishes on one worker open
    // separate group-commit batches (group-commit.ts) and each shows up as its own lock wait.
    const messages = ['finishing-0', 'finishing-1', 'finishing-2'];
    const ids = await Promise.all(messages.map((message, index) => create(apis[index % 2].url, { message, script: { start_delay_ms: 400 + index * 100, outcome: 'failed' } })));
    const monitor = await mysql.createConnection({ uri: topology.databaseUrl });
    const locker = await mysql.createConnection({ uri: topology.databaseUrl });
    try {
      const [[{ lockerThread }]] = await locker.query<RowDataPacket[]>('SELECT CONNECTION_ID() AS lockerThread');
      await locker.query('BEGIN');
      // Lock each row as soon as a worker has claimed it: its provider call is then running, and the finish that
      // follows blocks on this lock inside the worker's finishing transaction.
      const holders = new Map<string, string>();
      await pollUntil(5_000, 'every request claimed by a worker and locked by the test', async () => {
        const [rows] = await monitor.query<RowDataPacket[]>('SELECT id, status FROM requests WHERE id IN (?)', [ids]);
        for (const row of rows.filter((candidate) => candidate.status === 'processing' && !holders.has(candidate.id))) {
          const [[locked]] = await locker.query<RowDataPacket[]>('SELECT status, lease_owner FROM requests WHERE id = ? FOR UPDATE', [row.id]);
          expect(locked.status, `${row.id} finished before the test could lock it`).to.equal('processing');
          holders.set(row.id, locked.lease_owner);
        }
        return holders.size === ids.length;
      });

      // Each holder must be inside its finish: the statement waiting on the test's lock of that request's row is the
      // terminal UPDATE of requests.finish (request-store.ts). The server shows a prepared statement's text with its
      // placeholders, so the row comes from the lock it waits for (its primary key value, `lock_data`).
      const isFinishOf = (statement: { query: string; row: string }, id: string) =>
        /^\s*UPDATE requests\s+SET status = \?, output = \?, error_message = \?, completed_at_ms = \?/.test(statement.query) && statement.row === `'${id}'`;
      let waiting: { thread: number; query: string; row: string }[] = [];
      await pollUntil(
        5_000,
        'each worker to block on the test lock in its finishing UPDATE',
        async () => {
          const [rows] = await monitor.query<RowDataPacket[]>(
            `SELECT waiter.trx_mysql_thread_id AS thread, waiter.trx_query AS query, requested.lock_data AS row
               FROM information_schema.innodb_lock_waits lock_wait
               JOIN information_schema.innodb_locks requested ON requested.lock_id = lock_wait.requested_lock_id
               JOIN information_schema.innodb_trx waiter ON waiter.trx_id = lock_wait.requesting_trx_id
               JOIN information_schema.innodb_trx blocker ON blocker.trx_id = lock_wait.blocking_trx_id
              WHERE blocker.trx_mysql_thread_id = ?`,
            [lockerThread],
          );
          waiting = rows.map((row) => ({ thread: Number(row.thread), query: String(row.query), row: String(row.row) }));
          return ids.every((id) => waiting.some((statement) => isFinishOf(statement, id)));
        },
        // InnoDB refreshes its information_schema lock tables only after 100 ms without a reader: poll slower.
        250,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; statements waiting on the test lock: ${JSON.stringify(waiting)}`);
      });
      const finishThreads = waiting.filter((statement) => ids.some((id) => isFinishOf(statement, id))).map((statement) => statement.thread);

      const victims = workers.filter((worker) => [...holders.values()].some((owner) => owner.split(':').at(-2) === String(worker.child.pid)));
      expect(victims.length, 'every lease holder is one of the running workers').to.equal(new Set(holders.values()).size);
      for (const victim of victims) await topology.kill(victim);
      await locker.query('ROLLBACK');
      // The server notices a dead client only when it next writes to it: a killed worker's finish stays queued on
      // the lock, runs once the lock is released, and is then rolled back with its connection. Wait for that,
      // then check none of it stuck.
      await pollUntil(5_000, "the killed workers' finishing connections to close", async () => {
        const [rows] = await monitor.query<RowDataPacket[]>('SELECT id FROM information_schema.processlist WHERE id IN (?)', [finishThreads]);
        return rows.length === 0;
      });
      const [afterKill] = await monitor.query<RowDataPacket[]>('SELECT status FROM requests WHERE id IN (?)', [ids]);
      expect(afterKill.map((row) => row.status), 'no killed finish committed').to.deep.equal(ids.map(() => 'processing'));
      for (const victim of victims) workers[workers.indexOf(victim)] = await topology.start('worker');

      const results = await waitForTerminal(apis[0].url, key, ids, 20_000);
      for (const [index, id] of ids.entries()) {
        expect(results.get(id).status, id).to.equal('failed');
        expect(results.get(id).errorMessage, id).to.equal(`vendor says no: ${messages[index]}`);
        expect((await topology.requestRow(id)).attempts, `${id}: claimed by the killed worker, then taken over once`).to.equal(2);
      }
      const [entries] = await monitor.query<RowDataPacket[]>('SELECT request_id, kind, amount FROM credit_ledger WHERE request_id IN (?) ORDER BY kind', [ids]);
      const byRequest = new Map<string, [string, number][]>();
      for (const entry of entries) byRequest.set(entry.request_id, [...(byRequest.get(entry.request_id) ?? []), [entry.kind, Number(entry.amount)]]);
      expect(Object.fromEntries(byRequest), 'one debit and exactly one refund each').to.deep.equal(
        Object.fromEntries(ids.map((id) => [id, [['debit', -2], ['refund', 2]]])),
      );
      await expectBalancedLedger();
    } finally {
      await locker.end();
      await monitor.end();
    }
  });

  it('survives workers killed at random moments, in every phase, with exactly-once settlement', async () => {
    const ids: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      ids.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            create(apis[index % 2].url, { message: `soak-${round}-${index}`, script: { pending: index % 4, start_delay_ms: (index * 37) % 300, outcome: index % 7 === 0 ? 'failed' : 'done' } }),
          ),
        )),
      );
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 400));
      const victim = Math.floor(Math.random() * 2);
      await topology.kill(workers[victim]);
      workers[victim] = await topology.start('worker');
    }
    const results = await waitForTerminal(apis[0].url, key, ids, 120_000);
    expect([...results.values()].filter((request) => request.status === 'succeeded').length).to.be.greaterThan(40);
    await expectBalancedLedger();
  });

  it('stops a worker gracefully on SIGTERM: in-flight work finishes in place, then the process exits 0', async () => {
    const id = await create(apis[0].url, { message: 'graceful', script: { start_delay_ms: 1500 } });
    // Wait until a worker holds it (mid provider call), then stop both workers.
    const until = Date.now() + 10_000;
    while ((await api(apis[0].url, key, 'GET', `/api/v1/requests/${id}`)).body.status !== 'processing' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const exits = workers.map((worker) => new Promise<number | null>((resolve) => worker.child.once('exit', (code) => resolve(code))));
    for (const worker of workers) worker.child.kill('SIGTERM');
    const codes = await Promise.all(exits);
    expect(codes).to.deep.equal([0, 0]);
    const { body } = await api(apis[0].url, key, 'GET', `/api/v1/requests/${id}`);
    expect(body.status, 'finished by the worker that was stopping').to.equal('succeeded');
    const knexRow = await topology.requestRow(id);
    expect(knexRow.attempts, 'not taken over by another worker').to.equal(1);
    workers = [await topology.start('worker'), await topology.start('worker')];
    await expectBalancedLedger();
  });

  it('loses none of a burst of 500 creates while RabbitMQ restarts', async () => {
    const ids: string[] = [];
    let failures = 0;
    const burst = (async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < 500) {
            const index = next++;
            const response = await api(apis[index % 2].url, key, 'POST', '/api/v1/requests', { operation: 'test.echo', input: { message: `burst-${index}` } }).catch(() => undefined);
            if (response?.status === 202) ids.push(response.body.id);
            else failures += 1;
          }
        }),
      );
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await promisify(execFile)('rabbitmqctl', ['stop_app']);
    const unhealthy = await (await fetch(`${apis[0].url}/healthz`)).json();
    await promisify(execFile)('rabbitmqctl', ['start_app']);
    await burst;
    expect(unhealthy.checks.queue.ok, 'health tells the truth while the broker is down').to.equal(false);
    expect(failures, 'every create was acknowledged (the request row is committed before the publish)').to.equal(0);
    expect(ids).to.have.length(500);
    const results = await waitForTerminal(apis[1].url, key, ids, 150_000);
    expect([...results.values()].every((request) => request.status === 'succeeded')).to.equal(true);
    await expectBalancedLedger();
  });
});
