/**
 * The request lifecycle over real HTTP, driven by the scripted test provider (loaded from an extra plugin
 * folder, for an operation added by one extra manifest): submit, processing with the downstream task,
 * polls, terminal state, and the credit arithmetic of every outcome.
 */
import { expect } from 'chai';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';

describe('request lifecycle (scripted provider)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService(withFixtures);
  });
  after(async () => service.stop());

  async function balance(key: string): Promise<number> {
    const status = await service.api('GET', '/api/v1/status', { key });
    return status.body.creditsRemaining;
  }

  async function ledgerMatchesBalance(accountId: string): Promise<void> {
    const { accounts } = service.service.gateway;
    const account = await accounts.getAccount(accountId);
    expect(await accounts.ledgerTotal(accountId)).to.equal(account!.creditsBalance);
  }

  it('an operation added by one manifest is served, priced and listed in the OpenAPI document', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'hi', size: 'large' } } });
    expect(created.status).to.equal(202);
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done.billableCredits).to.equal(10);
    const openapi = await service.api('GET', '/api/v1/openapi');
    expect(openapi.body.components.schemas).to.have.property('Create_test_echo');
  });

  it('goes queued -> processing (with the downstream task) -> succeeded through scheduled polls', async () => {
    const { key, accountId } = await service.createKey({ credits: 100 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'hello', script: { pending: 3 } } } });
    expect(created.status).to.equal(202);
    expect(created.body).to.deep.equal({
      id: created.body.id,
      status: 'queued',
      operation: 'test.echo',
      poll_after_ms: 20,
      urls: { get: `${service.url}/api/v1/requests/${created.body.id}` },
    });
    expect(created.body.id).to.match(/^req_[0-9a-z]{25}$/);
    expect(await balance(key)).to.equal(98);

    let sawProcessing: any;
    const until = Date.now() + 20_000;
    while (!sawProcessing && Date.now() < until) {
      const polled = await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
      if (polled.body.status === 'processing' && polled.body.output.task_id) sawProcessing = polled.body;
      if (polled.body.status === 'succeeded') break;
    }
    expect(sawProcessing, 'a processing state with task metadata was observed').to.not.equal(undefined);
    expect(sawProcessing.output).to.include({ task_id: `scripted_${created.body.id}`, status: 'processing', provider: 'scripted', model: 'echo-v1' });
    expect(sawProcessing.startedAtMs).to.be.a('number');
    expect(sawProcessing.completedAtMs).to.equal(null);

    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done).to.deep.include({ status: 'succeeded', operation: 'test.echo', billableCredits: 2, errorMessage: null });
    expect(done.output).to.deep.equal({ status: 'succeeded', echo: 'hello', task_id: 'scripted_task', provider: 'scripted' });
    expect(done.completedAtMs).to.be.at.least(done.startedAtMs);
    expect(done.startedAtMs).to.be.at.least(done.createdAtMs);
    expect(await balance(key)).to.equal(98);
    const row = await service.service.gateway.requests.get(created.body.id);
    expect(row!.pollCount).to.equal(3);
    await ledgerMatchesBalance(accountId);
  });

  for (const [outcome, message] of [
    ['failed', 'vendor says no: boom'],
    ['permanent_error', 'vendor rejected the input (HTTP 400)'],
    ['malformed', 'the provider returned malformed output: /echo must be string'],
    // A plugin defect's own text (here a temp path) stays in the log.
    ['crash', 'provider scripted failed with an internal error'],
  ] as const) {
    it(`a ${outcome} outcome fails the request with a message and refunds it in full`, async () => {
      const { key, accountId } = await service.createKey({ credits: 50 });
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'boom', script: { pending: 1, outcome } } } });
      const ledger = await service.service.gateway.database.knex('credit_ledger').where({ request_id: created.body.id, kind: 'debit' }).first();
      expect(ledger.amount).to.equal(-2);
      const done = await pollUntilTerminal(service, key, created.body.id);
      expect(done.status).to.equal('failed');
      expect(done.errorMessage).to.equal(message);
      expect(done.completedAtMs).to.be.a('number');
      expect(await balance(key)).to.equal(50);
      await ledgerMatchesBalance(accountId);
    });
  }

  it('retries a start that the vendor deferred (transient errors) without failing or charging twice', async () => {
    const { key, accountId } = await service.createKey({ credits: 10 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'again', script: { transient_starts: 2 } } } });
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done.status).to.equal('succeeded');
    expect(await balance(key)).to.equal(8);
    const row = await service.service.gateway.requests.get(created.body.id);
    expect(row!.attempts).to.equal(1);
    await ledgerMatchesBalance(accountId);
  });

  it('keeps the manifest\'s price when a plugin reports a credit figure of its own, and drops the figure', async () => {
    const { key, accountId } = await service.createKey({ credits: 20 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'cheap', size: 'large', script: { exact_cost_credits: 4, pending: 1 } } } });
    expect((await service.api('GET', `/api/v1/requests/${created.body.id}`, { key })).body.billableCredits).to.equal(10);
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done.billableCredits).to.equal(10);
    expect(done.output).to.not.have.property('exact_cost_credits');
    expect(await balance(key)).to.equal(10);
    await ledgerMatchesBalance(accountId);
  });

  it('polls a task that never finishes at growing intervals, then fails it at the give-up time, refunded', async () => {
    const { key, accountId } = await service.createKey({ credits: 20 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.slow', input: { message: 'forever', script: { pending: 1_000_000 } } } });
    expect(await balance(key)).to.equal(13);
    const done = await pollUntilTerminal(service, key, created.body.id, 20_000);
    expect(done.status).to.equal('failed');
    expect(done.errorMessage).to.equal('the provider did not finish within 2 s');
    expect(done.completedAtMs - done.startedAtMs).to.be.at.least(1500);
    // 20 ms growing x2 up to 400 ms: about 9 polls in 1.5 s, where a fixed 20 ms interval would make 75.
    const row = await service.service.gateway.requests.get(created.body.id);
    expect(row!.pollCount).to.be.within(4, 14);
    expect(done.output).to.include({ status: 'failed', provider: 'scripted', task_id: `scripted_${created.body.id}` });
    expect(await balance(key)).to.equal(20);
    await ledgerMatchesBalance(accountId);
  });

  it('status and poll calls spend no credits', async () => {
    const { key } = await service.createKey({ credits: 5 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'x' } } });
    await pollUntilTerminal(service, key, created.body.id);
    for (let i = 0; i < 5; i += 1) {
      await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
      await service.api('GET', '/api/v1/status', { key });
    }
    expect(await balance(key)).to.equal(3);
  });
});
