/** Beyond the spec, as Replicate/fal/OpenAI users expect: list with cursor pages, cancel with refund, cost estimates, and `Prefer: wait`. */
import { expect } from 'chai';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';

describe('list, cancel, estimate and Prefer: wait', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService(withFixtures);
  });
  after(async () => service.stop());

  const echo = (input: Record<string, unknown> = { message: 'hi' }) => ({ operation: 'test.echo', input });

  it('lists the key\'s requests newest first in cursor pages, with filters', async () => {
    const { key } = await service.createKey({ credits: 1000 });
    const other = await service.createKey({ credits: 100 });
    await service.api('POST', '/api/v1/requests', { key: other.key, body: echo() });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await service.api('POST', '/api/v1/requests', { key, body: echo({ message: `m${index}` }) })).body.id);
    const slow = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.slow', input: { message: 'x', script: { pending: 1_000_000 } } } });
    ids.push(slow.body.id);
    const first = await service.api('GET', '/api/v1/requests?limit=4', { key });
    expect(first.status).to.equal(200);
    expect(first.body.object).to.equal('list');
    expect(first.body.data.map((item: { id: string }) => item.id)).to.deep.equal([...ids].reverse().slice(0, 4));
    expect(first.body.has_more).to.equal(true);
    const second = await service.api('GET', `/api/v1/requests?limit=4&starting_after=${first.body.next_cursor}`, { key });
    expect(second.body.data.map((item: { id: string }) => item.id)).to.deep.equal([...ids].reverse().slice(4));
    expect(second.body).to.include({ has_more: false, next_cursor: null });
    const slowOnly = await service.api('GET', '/api/v1/requests?operation=test.slow', { key });
    expect(slowOnly.body.data.map((item: { id: string }) => item.id)).to.deep.equal([slow.body.id]);
    const bad = await service.api('GET', '/api/v1/requests?status=done&limit=500', { key });
    expect(bad.status).to.equal(422);
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).to.deep.equal(['query:limit', 'query:status']);
    await service.api('POST', `/api/v1/requests/${slow.body.id}/cancel`, { key });
  });

  it('cancels a processing request: failed with a clear message, refunded in full, and only once', async () => {
    const { key } = await service.createKey({ credits: 50 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.slow', input: { message: 'stop me', script: { pending: 1_000_000 } } } });
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(43);
    let cancelled: any;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      cancelled = await service.api('POST', `/api/v1/requests/${created.body.id}/cancel`, { key });
      if (cancelled.status !== 409) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.include({ id: created.body.id, status: 'failed', errorMessage: 'the request was cancelled by the client' });
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(50);
    const again = await service.api('POST', `/api/v1/requests/${created.body.id}/cancel`, { key });
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('MG_REQUEST_ALREADY_FINISHED');
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(50);
    const stranger = await service.createKey();
    expect((await service.api('POST', `/api/v1/requests/${created.body.id}/cancel`, { key: stranger.key })).status).to.equal(404);
  });

  it('estimates exactly what create would charge, validating the same way, spending nothing', async () => {
    const { key, accountId } = await service.createKey({ credits: 6 });
    const estimate = await service.api('POST', '/api/v1/estimates', { key, body: echo({ message: 'x', size: 'large' }) });
    expect(estimate.status).to.equal(200);
    expect(estimate.body).to.deep.equal({ operation: 'test.echo', model: 'echo-1', billableCredits: 10, creditsRemaining: 6, affordable: false });
    const invalid = await service.api('POST', '/api/v1/estimates', { key, body: echo({ message: '' }) });
    expect(invalid.status).to.equal(422);
    expect(invalid.body.errors[0].path).to.equal('/input/message');
    const rows = await service.service.gateway.database.knex('requests').where({ account_id: accountId });
    expect(rows).to.have.length(0);
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(6);
  });

  it('answers a create with Prefer: wait with the finished request when it completes in time, else 202', async () => {
    const { key } = await service.createKey({ credits: 100 });
    // Only a wait that ran out is counted apart (the create-latency SLI leaves those out): not one that finished.
    const ranOut = async () => (await service.service.gateway.metrics.createWaitsRanOut.get()).values[0]?.value ?? 0;
    const ranOutBefore = await ranOut();
    const quick = await service.api('POST', '/api/v1/requests', { key, body: echo({ message: 'fast' }), headers: { prefer: 'wait=5' } });
    expect(quick.status).to.equal(200);
    expect(quick.headers.get('preference-applied')).to.equal('wait=5');
    expect(quick.body).to.include({ status: 'succeeded' });
    expect(quick.body.output.echo).to.equal('fast');
    expect(await ranOut()).to.equal(ranOutBefore);
    const slow = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.slow', input: { message: 'slow', script: { pending: 1_000_000 } } }, headers: { prefer: 'wait=1' } });
    expect(slow.status).to.equal(202);
    expect(slow.body.status).to.equal('queued');
    expect(await ranOut()).to.equal(ranOutBefore + 1);
    await pollUntilTerminal(service, key, slow.body.id, 10_000);
  });
});
