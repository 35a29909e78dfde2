/** Idempotent create with Stripe semantics, over real HTTP. */
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';

describe('idempotent create (x-idempotency-key)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService(withFixtures);
  });
  after(async () => service.stop());

  const body = { operation: 'test.echo', input: { message: 'once' } };

  async function count(accountId: string) {
    const knex = service.service.gateway.database.knex;
    const requests = await knex('requests').where({ account_id: accountId }).count({ n: '*' }).first();
    const debits = await knex('credit_ledger').where({ account_id: accountId, kind: 'debit' }).count({ n: '*' }).first();
    return { requests: Number(requests!.n), debits: Number(debits!.n) };
  }

  it('replays the first response for the same key and body, marked Idempotent-Replayed', async () => {
    const { key, accountId } = await service.createKey({ credits: 100 });
    const headers = { 'x-idempotency-key': 'order-1' };
    const first = await service.api('POST', '/api/v1/requests', { key, body, headers });
    const second = await service.api('POST', '/api/v1/requests', { key, body: { input: { message: 'once' }, operation: 'test.echo' }, headers });
    expect(first.status).to.equal(202);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    expect(second.status).to.equal(202);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.body).to.deep.equal(first.body);
    expect(await count(accountId)).to.deep.equal({ requests: 1, debits: 1 });
  });

  it('refuses the same key with a different body (422) and keeps keys per API key', async () => {
    const { key, accountId } = await service.createKey({ credits: 100 });
    const headers = { 'x-idempotency-key': 'order-2' };
    await service.api('POST', '/api/v1/requests', { key, body, headers });
    const changed = await service.api('POST', '/api/v1/requests', { key, body: { ...body, input: { message: 'twice' } }, headers });
    expect(changed.status).to.equal(422);
    expect(changed.body.code).to.equal('MG_IDEMPOTENCY_KEY_REUSED');
    const other = await service.createKey({ credits: 100 });
    const otherFirst = await service.api('POST', '/api/v1/requests', { key: other.key, body, headers });
    expect(otherFirst.status).to.equal(202);
    expect(otherFirst.headers.get('idempotent-replayed')).to.equal(null);
    expect(await count(accountId)).to.deep.equal({ requests: 1, debits: 1 });
  });

  it('does not consume the key when the create is refused before writing (402), so a retry can succeed', async () => {
    const { key, accountId } = await service.createKey({ credits: 1 });
    const headers = { 'x-idempotency-key': 'order-3' };
    expect((await service.api('POST', '/api/v1/requests', { key, body, headers })).status).to.equal(402);
    await service.service.gateway.accounts.grantCredits(accountId, 10, 'top-up', Date.now());
    expect((await service.api('POST', '/api/v1/requests', { key, body, headers })).status).to.equal(202);
  });

  it('50 concurrent identical submissions create exactly one request and one debit', async () => {
    const { key, accountId } = await service.createKey({ credits: 1000 });
    const headers = { 'x-idempotency-key': 'burst-1' };
    const responses = await Promise.all(Array.from({ length: 50 }, () => service.api('POST', '/api/v1/requests', { key, body, headers })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 202 || status === 409), statuses.join(',')).to.equal(true);
    const ids = new Set(responses.filter((response) => response.status === 202).map((response) => response.body.id));
    expect(ids.size).to.equal(1);
    for (const conflict of responses.filter((response) => response.status === 409)) {
      expect(conflict.body.code).to.equal('MG_IDEMPOTENCY_IN_FLIGHT');
      expect(conflict.headers.get('retry-after')).to.equal('1');
    }
    expect(await count(accountId)).to.deep.equal({ requests: 1, debits: 1 });
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(998);
  });
});
