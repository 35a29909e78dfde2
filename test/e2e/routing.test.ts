/**
 * Routing through the gateway: a configured vendor gets its models' requests; a transient vendor failure
 * falls back to the next plugin of the route; with no enabled plugin the create is refused (503) naming
 * what to configure, before any credit is spent. The embedded default lets the offline `local` plugin stand in
 * for any vendor; the production profile never does: a fallback there is only ever another real vendor.
 */
import { expect } from 'chai';
import nock from 'nock';
import { fileURLToPath } from 'node:url';
import { errorTypeUri } from '../../src/kernel/errors/index.js';
import { rawToolCall } from '../support/mcp-tool-call.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const chatCompletion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4.1-mini',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

const production = { MEDIAGATE_ENV: 'production' };
/** Two test vendors (relay-a, relay-b) and a synthetic stand-in between them, for the fixture operation test.relay. */
const relayFixtures = {
  manifest_dirs: [fileURLToPath(new URL('../fixtures/routing/manifests', import.meta.url))],
  plugin_dirs: [fileURLToPath(new URL('../fixtures/routing/plugins', import.meta.url))],
  providers: { 'relay-a': { api_key: 'key-a' }, 'relay-b': { api_key: 'key-b' } },
};

/** What a refused create leaves behind for an account: its balance, its request rows and its ledger entries. */
async function accountTrace(service: TestService, key: string, accountId: string): Promise<{ credits: number; requests: number; ledger: number }> {
  const { knex } = service.service.gateway.database;
  const count = async (table: string) => Number((await knex(table).where({ account_id: accountId }).count({ n: '*' }))[0].n);
  return { credits: (await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining, requests: await count('requests'), ledger: await count('credit_ledger') };
}

function unavailable(detail: string) {
  return { type: errorTypeUri('MG_PROVIDER_UNAVAILABLE'), title: 'No configured provider can serve this model', status: 503, detail, code: 'MG_PROVIDER_UNAVAILABLE', instance: '/api/v1/requests' };
}

describe('routing between vendor plugins and the local fallback', () => {
  before(() => nock.disableNetConnect());
  after(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
  beforeEach(() => nock.enableNetConnect(/127\.0\.0\.1/));
  afterEach(() => nock.cleanAll());

  describe('with an OpenAI key configured', () => {
    let service: TestService;
    let key: string;
    before(async () => {
      service = await startTestService({ providers: { openai: { api_key: 'sk-test-not-real', base_url: 'https://api.openai.test' } } });
      ({ key } = await service.createKey({ credits: 100 }));
    });
    after(async () => service.stop());

    it('sends prompt enhancement to OpenAI', async () => {
      const vendor = nock('https://api.openai.test')
        .post('/v1/chat/completions', (body) => body.model === 'gpt-4.1-mini' && JSON.stringify(body.messages).includes('a red fox'))
        .matchHeader('authorization', 'Bearer sk-test-not-real')
        .reply(200, chatCompletion('A red fox in fresh snow, golden hour, shallow depth of field.'));
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'prompt.enhance.image', input: { prompt: 'a red fox' } } });
      const done = await pollUntilTerminal(service, key, created.body.id);
      expect(done.status).to.equal('succeeded');
      expect(done.output).to.include({ enhancedPrompt: 'A red fox in fresh snow, golden hour, shallow depth of field.', model: 'gpt-4.1-mini', operation: 'prompt.enhance.image' });
      expect(vendor.isDone()).to.equal(true);
    });

    it('falls back to the local plugin when OpenAI keeps failing transiently', async () => {
      nock('https://api.openai.test').post('/v1/chat/completions').times(3).reply(503, { error: { message: 'overloaded', type: 'server_error' } });
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'prompt.enhance.image', input: { prompt: 'a blue whale' } } });
      const done = await pollUntilTerminal(service, key, created.body.id, 30_000);
      expect(done.status).to.equal('succeeded');
      expect(done.output.enhancedPrompt).to.contain('blue whale');
      expect((await service.service.gateway.requests.get(created.body.id))!.output).to.not.have.property('task_id');
    });

    it('fails (and refunds) on a permanent vendor error instead of falling back', async () => {
      nock('https://api.openai.test').post('/v1/chat/completions').reply(400, { error: { message: 'Invalid prompt: flagged by moderation', type: 'invalid_request_error' } });
      const before = (await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining;
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'prompt.enhance.image', input: { prompt: 'something flagged' } } });
      const done = await pollUntilTerminal(service, key, created.body.id);
      expect(done.status).to.equal('failed');
      expect(done.errorMessage).to.contain('Invalid prompt: flagged by moderation');
      expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(before);
    });
  });

  describe('with the local plugin switched off and no vendor keys', () => {
    let service: TestService;
    before(async () => {
      service = await startTestService({ providers: { local: { enabled: false } } });
    });
    after(async () => service.stop());

    it('refuses the create with 503 naming the providers the model needs, spending nothing', async () => {
      const { key } = await service.createKey({ credits: 50 });
      const response = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'image.generate', input: { prompt: 'x', model: 'kling-image' } } });
      expect(response.status).to.equal(503);
      expect(response.body.code).to.equal('MG_PROVIDER_UNAVAILABLE');
      expect(response.body.detail).to.contain('kling');
      expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(50);
    });
  });

  describe('in the embedded default (no vendor keys)', () => {
    let service: TestService;
    let key: string;
    before(async () => {
      service = await startTestService(relayFixtures);
      ({ key } = await service.createKey({ credits: 100 }));
    });
    after(async () => service.stop());

    it('serves an unconfigured vendor model with local, and output.provider and output.model say so', async () => {
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'image.generate', input: { prompt: 'a paper boat', model: 'nano-banana-pro' } } });
      expect(created.status).to.equal(202);
      const done = await pollUntilTerminal(service, key, created.body.id);
      expect(done.status).to.equal('succeeded');
      expect(done.output).to.include({ provider: 'local', model: 'local-image' });
      expect(done.input).to.include({ model: 'nano-banana-pro' });
    });

    it('serves a planned model with the stand-in, and lists it as planned in the OpenAPI document and model availability', async () => {
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.relay', input: { message: 'later', model: 'relay-next' } } });
      expect(created.status).to.equal(202);
      const done = await pollUntilTerminal(service, key, created.body.id);
      expect(done.status).to.equal('succeeded');
      expect(done.output).to.include({ provider: 'stand-in', echo: 'synthetic: later' });
      const openapi = await service.api('GET', '/api/v1/openapi');
      expect(openapi.body.components.schemas.Create_test_relay.description).to.contain('`relay-next` (Relay Next; planned: relay-c plugin not available yet)');
      const availability = await rawToolCall(`${service.url}/mcp`, '', 'get_model_availability', { operation: 'test.relay', model: 'relay-next' });
      expect(availability.body.result.structuredContent.models[0]).to.include({ primary_plugin: null, planned: 'relay-c', served_by: 'stand-in' });
    });

    it('lets a synthetic stand-in serve when the first vendor fails transiently', async () => {
      nock('https://relay-a.relay.test').post('/v1/relay').reply(503, { error: { message: 'overloaded', type: 'server_error' } }).persist();
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.relay', input: { message: 'hello' } } });
      const done = await pollUntilTerminal(service, key, created.body.id);
      expect(done.output).to.deep.equal({ status: 'succeeded', echo: 'synthetic: hello', provider: 'stand-in', model: 'relay-1' });
    });
  });

  describe('in production (MEDIAGATE_ENV=production)', () => {
    let service: TestService;
    /** Production's clock, moved forward to reach a manifest's give-up time without waiting for it. */
    let skewMs = 0;
    before(async () => {
      service = await startTestService(
        { ...relayFixtures, providers: { ...relayFixtures.providers, openai: { api_key: 'sk-test-not-real', base_url: 'https://api.openai.test' } } },
        { env: production, clock: { now: () => Date.now() + skewMs } },
      );
    });
    after(async () => service.stop());

    it('switches the local plugin off', () => {
      expect(service.service.gateway.plugins.breakerStates().local).to.deep.equal({ enabled: false, state: 'closed' });
      expect(service.service.gateway.settings.routing).to.deep.equal({ synthetic_fallback: false });
    });

    const refusals = [
      {
        what: 'a model whose vendor has no key',
        body: { operation: 'image.generate', input: { prompt: 'a fox', model: 'nano-banana-pro' } },
        detail: 'model nano-banana-pro needs one of these providers configured: google (providers.google.* or MEDIAGATE_PROVIDER_GOOGLE_*)',
      },
      {
        what: 'a planned model',
        body: { operation: 'test.relay', input: { message: 'waves', model: 'relay-next' } },
        detail: 'model relay-next is not available here: its vendor plugin (relay-c) is planned but not written yet',
      },
    ];
    for (const { what, body, detail } of refusals) {
      it(`refuses ${what} with 503 before any debit: no request row, no ledger entry`, async () => {
        const { key, accountId } = await service.createKey({ credits: 500 });
        const before = await accountTrace(service, key, accountId);
        const response = await service.api('POST', '/api/v1/requests', { key, body });
        expect(response.status).to.equal(503);
        expect(response.body).to.deep.equal(unavailable(detail));
        expect(await accountTrace(service, key, accountId)).to.deep.equal(before);
        expect(before).to.include({ credits: 500, requests: 0 });
      });
    }

    it('falls back from one real vendor to the second, never to the synthetic stand-in between them', async () => {
      const { key } = await service.createKey({ credits: 100 });
      const first = nock('https://relay-a.relay.test').post('/v1/relay').reply(503, { error: { message: 'overloaded', type: 'server_error' } }).persist();
      const second = nock('https://relay-b.relay.test')
        .post('/v1/relay', { model: 'relay-v1', message: 'hello' })
        .matchHeader('authorization', 'Bearer key-b')
        .reply(200, { text: 'hello from b' });
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.relay', input: { message: 'hello' } } });
      const done = await pollUntilTerminal(service, key, created.body.id);
      expect(done.output).to.deep.equal({ status: 'succeeded', echo: 'hello from b', provider: 'relay-b', model: 'relay-1' });
      expect(first.isDone() && second.isDone()).to.equal(true);
    });

    it('keeps a request for a transiently failing vendor queued, never served by local, then fails it with a refund at give-up', async () => {
      const { key, accountId } = await service.createKey({ credits: 100 });
      let vendorCalls = 0;
      nock('https://api.openai.test')
        .post('/v1/chat/completions')
        .reply(() => {
          vendorCalls += 1;
          return [503, { error: { message: 'overloaded', type: 'server_error' } }];
        })
        .persist();
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'prompt.enhance.image', input: { prompt: 'a blue whale' } } });
      expect(created.status).to.equal(202);
      expect((await accountTrace(service, key, accountId)).credits).to.equal(99);

      // Deferred and retried more than once: the vendor saw a second start, and the request is still waiting for it.
      const deadline = Date.now() + 20_000;
      while (vendorCalls < 2 || (await service.service.gateway.requests.get(created.body.id))!.status !== 'queued') {
        if (Date.now() > deadline) throw new Error(`vendor called ${vendorCalls} times; request not back in the queue`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const waiting = await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
      expect(waiting.body.status).to.equal('queued');
      expect(waiting.body.output?.provider).to.not.equal('local');

      skewMs = 121_000; // past prompt.enhance.image's give_up_after_ms (120 s)
      const done = await pollUntilTerminal(service, key, created.body.id, 20_000);
      // The output is left to the lifecycle (empty, or the last attempt's provider): it just never names local.
      expect(done.output?.provider).to.not.equal('local');
      expect(done).to.deep.equal({
        id: created.body.id,
        operation: 'prompt.enhance.image',
        status: 'failed',
        billableCredits: 1,
        createdAtMs: done.createdAtMs,
        startedAtMs: done.startedAtMs,
        completedAtMs: done.completedAtMs,
        errorMessage: 'the provider did not finish within 120 s',
        output: done.output,
        input: { prompt: 'a blue whale' },
        dataRemovedAtMs: null,
        urls: { get: `${service.url}/api/v1/requests/${created.body.id}` },
        credits: {
          charged: 1,
          refunded: 1,
          net: 0,
          entries: [
            { kind: 'debit', amount: -1, note: null, atMs: done.createdAtMs },
            { kind: 'refund', amount: 1, note: null, atMs: done.completedAtMs },
          ],
        },
      });
      expect(await accountTrace(service, key, accountId)).to.deep.include({ credits: 100, requests: 1 });
    });
  });
});
