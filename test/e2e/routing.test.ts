/**
 * Routing through the gateway: a configured vendor gets its models' requests; a transient vendor failure
 * falls back to the next plugin of the route; with no enabled plugin the create is refused (503) naming
 * what to configure, before any credit is spent.
 */
import { expect } from 'chai';
import nock from 'nock';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const chatCompletion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4.1-mini',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

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
});
