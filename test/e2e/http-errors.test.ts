/**
 * Every error status of the API, over real HTTP: the problem+json body from the catalogue, the failing
 * field as a JSON pointer, and no request row or debit left behind by a refused create.
 */
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';

describe('HTTP errors', () => {
  let service: TestService;
  let key: string;
  let accountId: string;
  before(async () => {
    service = await startTestService({ ...withFixtures, server: { body_limit_bytes: 4096 } });
    ({ key, accountId } = await service.createKey({ credits: 100 }));
  });
  after(async () => service.stop());

  const echo = (input: unknown = { message: 'hi' }) => ({ operation: 'test.echo', input });

  async function requestCount(): Promise<number> {
    const row = await service.service.gateway.database.knex('requests').where({ account_id: accountId }).count({ n: '*' }).first();
    return Number(row!.n);
  }

  function expectProblem(response: { status: number; headers: Headers; body: any }, status: number, code: string) {
    expect(response.status).to.equal(status);
    expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(response.body).to.include({ status, code });
    expect(response.body.type).to.be.a('string');
    expect(response.body.title).to.be.a('string');
    expect(response.body.detail).to.be.a('string');
  }

  it('401 without, with an unknown, and with a revoked key', async () => {
    expectProblem(await service.api('GET', '/api/v1/status'), 401, 'MG_UNAUTHENTICATED');
    expectProblem(await service.api('GET', '/api/v1/status', { key: 'mg_notarealkey' }), 401, 'MG_UNAUTHENTICATED');
    const revocable = await service.createKey();
    expect((await service.api('GET', '/api/v1/status', { key: revocable.key })).status).to.equal(200);
    await service.service.gateway.apiKeys.revoke(revocable.keyId);
    expectProblem(await service.api('GET', '/api/v1/status', { key: revocable.key }), 401, 'MG_UNAUTHENTICATED');
    expectProblem(await service.api('POST', '/api/v1/requests', { key: revocable.key, body: echo() }), 401, 'MG_UNAUTHENTICATED');
  });

  it('GET /api/v1/status shows the key, account and balance, and records the key as used', async () => {
    const before = Date.now();
    const response = await service.api('GET', '/api/v1/status', { key });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      ok: true,
      status: 'ok',
      message: 'API key "test key" is valid.',
      creditsRemaining: 100,
      credits: { remaining: 100 },
      account: { email: 'test@example.com', plan: 'test' },
      apiKey: { name: 'test key', scopes: ['requests:read', 'requests:write'] },
      serverTime: response.body.serverTime,
    });
    expect(response.body.serverTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The last use is not written by the request: the keys used within a second are written together after it.
    const lastUse = async () => (await service.service.gateway.accounts.listApiKeys()).find((item) => item.accountId === accountId)!.lastUsedAtMs;
    const until = Date.now() + 3_000;
    while ((await lastUse()) === null && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lastUse()).to.be.within(before, Date.now());
  });

  it('403 when the key lacks the scope the endpoint needs', async () => {
    const readOnly = await service.createKey({ scopes: ['requests:read'] });
    expectProblem(await service.api('POST', '/api/v1/requests', { key: readOnly.key, body: echo() }), 403, 'MG_FORBIDDEN_SCOPE');
    const writeOnly = await service.createKey({ scopes: ['requests:write'] });
    const created = await service.api('POST', '/api/v1/requests', { key: writeOnly.key, body: echo() });
    expect(created.status).to.equal(202);
    expectProblem(await service.api('GET', `/api/v1/requests/${created.body.id}`, { key: writeOnly.key }), 403, 'MG_FORBIDDEN_SCOPE');
  });

  it('400 for malformed JSON, 415 for another content type, 413 past the body limit', async () => {
    const count = await requestCount();
    expectProblem(await service.api('POST', '/api/v1/requests', { key, rawBody: '{"operation": "test.echo",', headers: { 'content-type': 'application/json' } }), 400, 'MG_MALFORMED_JSON');
    expectProblem(await service.api('POST', '/api/v1/requests', { key, rawBody: 'operation=test.echo', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'MG_UNSUPPORTED_MEDIA_TYPE');
    expectProblem(await service.api('POST', '/api/v1/requests', { key, body: echo({ message: 'x'.repeat(5000) }) }), 413, 'MG_PAYLOAD_TOO_LARGE');
    expect(await requestCount()).to.equal(count);
  });

  it('422 names every failing field as a JSON pointer', async () => {
    const response = await service.api('POST', '/api/v1/requests', { key, body: echo({ message: '', size: 'huge', colour: 'red' }) });
    expectProblem(response, 422, 'MG_VALIDATION_FAILED');
    const paths = response.body.errors.map((error: { path: string }) => error.path).sort();
    expect(paths).to.deep.equal(['/input/colour', '/input/message', '/input/size']);
  });

  it('422 for an unknown operation, a missing input, extra envelope fields, and a bad webhook_url', async () => {
    const unknown = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'image.paint', input: {} } });
    expectProblem(unknown, 422, 'MG_UNKNOWN_OPERATION');
    expect(unknown.body.errors).to.deep.equal([{ path: '/operation', message: 'unknown operation image.paint' }]);
    const missing = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo' } });
    expectProblem(missing, 422, 'MG_VALIDATION_FAILED');
    expect(missing.body.errors).to.deep.equal([{ path: '/input', message: 'is required' }]);
    const extra = await service.api('POST', '/api/v1/requests', { key, body: { ...echo(), priority: 1 } });
    expect(extra.body.errors).to.deep.equal([{ path: '/priority', message: 'is not an accepted field' }]);
    const webhook = await service.api('POST', '/api/v1/requests', { key, body: { ...echo(), webhook_url: 'ftp://example.com/x' } });
    expectProblem(webhook, 422, 'MG_VALIDATION_FAILED');
    expect(webhook.body.errors[0].path).to.equal('/webhook_url');
    for (const body of [[], 'text', null, 42, { operation: 'test.echo', input: [] }]) {
      const response = await service.api('POST', '/api/v1/requests', { key, body });
      expect(response.status, JSON.stringify(body)).to.equal(422);
    }
  });

  it('402 when the balance does not cover the price: nothing is written, nothing is taken', async () => {
    const poor = await service.createKey({ credits: 3 });
    const count = await service.service.gateway.database.knex('requests').where({ account_id: poor.accountId }).count({ n: '*' }).first();
    const response = await service.api('POST', '/api/v1/requests', { key: poor.key, body: echo({ message: 'big', size: 'large' }) });
    expectProblem(response, 402, 'MG_INSUFFICIENT_CREDITS');
    expect(response.body.detail).to.equal('this request costs 10 credits; the account has 3');
    const after = await service.service.gateway.database.knex('requests').where({ account_id: poor.accountId }).count({ n: '*' }).first();
    expect(Number(after!.n)).to.equal(Number(count!.n));
    expect((await service.api('GET', '/api/v1/status', { key: poor.key })).body.creditsRemaining).to.equal(3);
  });

  it("404 for an unknown request and for another key's request", async () => {
    expectProblem(await service.api('GET', '/api/v1/requests/req_doesnotexist', { key }), 404, 'MG_REQUEST_NOT_FOUND');
    const created = await service.api('POST', '/api/v1/requests', { key, body: echo() });
    const other = await service.createKey();
    expectProblem(await service.api('GET', `/api/v1/requests/${created.body.id}`, { key: other.key }), 404, 'MG_REQUEST_NOT_FOUND');
    expectProblem(await service.api('GET', '/api/v1/nothing-here', { key }), 404, 'MG_NOT_FOUND');
  });

  it('405 for a method the path does not allow', async () => {
    const response = await service.api('DELETE', '/api/v1/status', { key });
    expectProblem(response, 405, 'MG_METHOD_NOT_ALLOWED');
  });

  // The request endpoints have a router of their own (app.ts), ahead of the one that answers 405s.
  it('405 naming the allowed methods on the request endpoints too, and 404 past them', async () => {
    const one = await service.api('DELETE', '/api/v1/requests/req_0mwtp5qgri9y40dri2k1z6uvk', { key });
    expectProblem(one, 405, 'MG_METHOD_NOT_ALLOWED');
    expect(one.headers.get('allow')).to.equal('HEAD, GET');
    const all = await service.api('PUT', '/api/v1/requests', { key });
    expectProblem(all, 405, 'MG_METHOD_NOT_ALLOWED');
    expect(all.headers.get('allow')).to.equal('POST, HEAD, GET');
    expectProblem(await service.api('GET', '/api/v1/requests/req_0mwtp5qgri9y40dri2k1z6uvk/nothing', { key }), 404, 'MG_NOT_FOUND');
  });
});
