/**
 * The 4 account tools over real HTTP with the official SDK client: the confirmation flow of billable creation
 * (preview spends nothing, the cap refuses, confirmed creates exactly like REST), polling to `succeeded` on the
 * embedded `local` provider, credits moved once, idempotency, and the same key isolation and scopes as REST.
 */
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

describe('MCP account tools', () => {
  let service: TestService;
  const sessions: ToolSession[] = [];
  before(async () => {
    service = await startTestService();
  });
  after(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await service.stop();
  });

  async function sessionFor(key: string): Promise<ToolSession> {
    const session = await openClientSession(service.url, key);
    sessions.push(session);
    return session;
  }

  /** A new account with `credits` and a key; its session and how to read its books. */
  async function account(credits: number, scopes?: Array<'requests:read' | 'requests:write'>) {
    const created = await service.createKey({ credits, scopes });
    const session = await sessionFor(created.key);
    const knex = service.service.gateway.database.knex;
    const books = async () => ({
      balance: (await service.service.gateway.accounts.getAccount(created.accountId))!.creditsBalance,
      requests: Number((await knex('requests').where({ account_id: created.accountId }).count({ n: '*' }).first())!.n),
      debits: await knex('credit_ledger').where({ account_id: created.accountId, kind: 'debit' }).select('request_id', 'amount'),
    });
    return { ...created, session, books };
  }

  // seedream-4 at 2K: 4 credits x 1 (model) x 1.25 (resolution) = 5.
  const image = { operation: 'image.generate', input: { prompt: 'a lighthouse at dusk', model: 'seedream-4', resolution: '2K' } };

  it('previews a create without confirmed: exact cost, validated input with defaults, balance after; nothing spent', async () => {
    const { session, books } = await account(12);
    const before = await books();
    const preview = await session.call('create_generation_request', image);
    expect(preview).to.deep.equal({
      ok: true,
      value: {
        status: 'preview',
        operation: 'image.generate',
        model: 'seedream-4',
        input: { prompt: 'a lighthouse at dusk', model: 'seedream-4', resolution: '2K' },
        credits: 5,
        balance: 12,
        balance_after: 7,
        affordable: true,
        confirm_with: { confirmed: true, max_credits: 5 },
      },
    });
    // The input is shown as it would be stored: schema defaults applied, priced with them.
    const defaulted = await session.call('create_generation_request', { operation: 'image.generate', input: { prompt: 'a lighthouse at dusk' } });
    expect(defaulted.value).to.deep.include({ input: { prompt: 'a lighthouse at dusk', model: 'nano-banana-pro' }, credits: 14, balance_after: -2, affordable: false });
    // `max_credits` alone, or `confirmed` alone, is still only a preview.
    expect((await session.call('create_generation_request', { ...image, max_credits: 5 })).value).to.include({ status: 'preview' });
    expect((await session.call('create_generation_request', { ...image, confirmed: true })).value).to.include({ status: 'preview' });
    expect(await books()).to.deep.equal(before);
    expect(before).to.deep.equal({ balance: 12, requests: 0, debits: [] });
  });

  it('creates when confirmed within the cap, polls to succeeded, and moves the credits exactly once', async () => {
    const { session, books, accountId, key } = await account(12);
    const created = await session.call('create_generation_request', { ...image, confirmed: true, max_credits: 5 });
    expect(created.ok).to.equal(true);
    const id = created.value.id as string;
    expect(id).to.match(/^req_[0-9a-z]+$/);
    expect(created.value).to.deep.equal({
      id,
      status: 'queued',
      operation: 'image.generate',
      poll_after_ms: created.value.poll_after_ms,
      urls: { get: `${service.url}/api/v1/requests/${id}` },
      credits: 5,
      replayed: false,
    });
    expect(created.value.poll_after_ms).to.be.a('number');

    const finished = await pollTool(session, id);
    expect(finished.status).to.equal('succeeded');
    expect(finished).to.include({ id, operation: 'image.generate', billableCredits: 5, errorMessage: null });
    expect(finished.output.image_url).to.match(new RegExp(`^${service.url}/files/`));
    // The tool returns exactly the REST request object.
    const rest = await service.api('GET', `/api/v1/requests/${id}`, { key });
    expect(rest.status).to.equal(200);
    expect(finished).to.deep.equal(rest.body);

    expect(await books()).to.deep.equal({ balance: 7, requests: 1, debits: [{ request_id: id, amount: -5 }] });
    expect(await service.service.gateway.accounts.ledgerTotal(accountId)).to.equal(7);
  });

  it('refuses a cost above max_credits, naming the cost and the cap, and spends nothing', async () => {
    const { session, books } = await account(12);
    const refused = await session.call('create_generation_request', { ...image, confirmed: true, max_credits: 4 });
    expect(refused).to.deep.equal({
      ok: false,
      error: { code: 'MG_CREDIT_CAP_EXCEEDED', message: 'this request costs 5 credits, above max_credits 4; nothing was charged' },
    });
    expect(await books()).to.deep.equal({ balance: 12, requests: 0, debits: [] });
  });

  it('answers invalid input with MG_VALIDATION_FAILED naming the field, for the preview and the estimate alike', async () => {
    const { session, books } = await account(12);
    const bad = { operation: 'image.generate', input: { prompt: 'x', model: 'nano-banana-pro', aspect_ratio: '1:1', resolution: '4K' } };
    const expected = {
      ok: false,
      error: {
        code: 'MG_VALIDATION_FAILED',
        message: 'input does not validate for image.generate',
        errors: [{ path: '/input/resolution', message: '1:1 is capped below 4K on nano-banana-pro (1:1 is also the default aspect ratio): use 1K or 2K, or another aspect_ratio' }],
      },
    };
    expect(await session.call('create_generation_request', { ...bad, confirmed: true, max_credits: 100 })).to.deep.equal(expected);
    expect(await session.call('estimate_generation_cost', bad)).to.deep.equal(expected);
    const unknown = await session.call('estimate_generation_cost', { operation: 'image.paint', input: {} });
    expect(unknown.error.code).to.equal('MG_UNKNOWN_OPERATION');
    expect(await books()).to.deep.equal({ balance: 12, requests: 0, debits: [] });
  });

  it('refuses a confirmed create the balance cannot cover with MG_INSUFFICIENT_CREDITS', async () => {
    const { session, books } = await account(3);
    expect((await session.call('create_generation_request', image)).value).to.include({ status: 'preview', balance: 3, balance_after: -2, affordable: false });
    expect(await session.call('create_generation_request', { ...image, confirmed: true, max_credits: 5 })).to.deep.equal({
      ok: false,
      error: { code: 'MG_INSUFFICIENT_CREDITS', message: 'this request costs 5 credits; the account has 3' },
    });
    expect(await books()).to.deep.equal({ balance: 3, requests: 0, debits: [] });
  });

  it('replays a confirmed create with the same idempotency_key instead of charging twice', async () => {
    const { session, books } = await account(20);
    const args = { ...image, confirmed: true, max_credits: 5, idempotency_key: 'order-7' };
    const first = await session.call('create_generation_request', args);
    const second = await session.call('create_generation_request', args);
    expect(second).to.deep.equal({ ok: true, value: { ...first.value, replayed: true } });
    const changed = await session.call('create_generation_request', { ...args, input: { ...image.input, prompt: 'another' } });
    expect(changed.error.code).to.equal('MG_IDEMPOTENCY_KEY_REUSED');
    expect(await books()).to.deep.equal({ balance: 15, requests: 1, debits: [{ request_id: first.value.id, amount: -5 }] });
  });

  it('estimates like POST /api/v1/estimates and reports status like GET /api/v1/status', async () => {
    const { session, key, keyId } = await account(12);
    const estimate = await session.call('estimate_generation_cost', image);
    const restEstimate = await service.api('POST', '/api/v1/estimates', { key, body: image });
    expect(estimate).to.deep.equal({ ok: true, value: { operation: 'image.generate', model: 'seedream-4', billableCredits: 5, creditsRemaining: 12, affordable: true } });
    expect(estimate.value).to.deep.equal(restEstimate.body);

    const status = await session.call('api_status', {});
    const restStatus = await service.api('GET', '/api/v1/status', { key });
    expect(status.ok).to.equal(true);
    const { serverTime, apiKey, ...rest } = status.value;
    const { serverTime: restTime, apiKey: restKey, ...restRest } = restStatus.body;
    expect(rest).to.deep.equal(restRest);
    expect(apiKey).to.deep.equal({ id: keyId, ...restKey });
    expect(Date.parse(serverTime)).to.be.closeTo(Date.parse(restTime), 5_000);
  });

  it('shows a request only to the key that created it', async () => {
    const owner = await account(12);
    const created = await owner.session.call('create_generation_request', { ...image, confirmed: true, max_credits: 5 });
    const stranger = await account(12);
    const id = created.value.id as string;
    expect(await stranger.session.call('get_generation_request', { id })).to.deep.equal({
      ok: false,
      error: { code: 'MG_REQUEST_NOT_FOUND', message: `no request ${id} for this API key` },
    });
    expect((await owner.session.call('get_generation_request', { id })).value).to.include({ id });
  });

  it('needs requests:write to create (even to preview) and requests:read to poll, like REST', async () => {
    const readOnly = await account(12, ['requests:read']);
    expect(await readOnly.session.call('create_generation_request', image)).to.deep.equal({
      ok: false,
      error: { code: 'MG_FORBIDDEN_SCOPE', message: 'this tool needs the requests:write scope; the credential has requests:read' },
    });
    expect(await readOnly.books()).to.deep.equal({ balance: 12, requests: 0, debits: [] });
    // Status and estimates take any valid key, as over REST.
    expect((await readOnly.session.call('estimate_generation_cost', image)).ok).to.equal(true);
    const writeOnly = await account(12, ['requests:write']);
    expect((await writeOnly.session.call('get_generation_request', { id: 'req_0' })).error.code).to.equal('MG_FORBIDDEN_SCOPE');
  });
});

/** Polls `get_generation_request` until the request is terminal, the way an agent would, with a deadline. */
async function pollTool(session: ToolSession, id: string, deadlineMs = 60_000): Promise<any> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const polled = await session.call('get_generation_request', { id });
    if (!polled.ok) throw new Error(`poll ${id}: ${JSON.stringify(polled.error)}`);
    if (polled.value.status === 'succeeded' || polled.value.status === 'failed') return polled.value;
    if (Date.now() > until) throw new Error(`request ${id} still ${polled.value.status} after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A tool call's answer as a model reads it: the structured result, or the tool error's JSON. */
type ToolOutcome = { ok: true; value: any; error?: undefined } | { ok: false; error: any; value?: undefined };

interface ToolSession {
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  close(): Promise<void>;
}

/** The official SDK client over Streamable HTTP, presenting the key as a bearer token. */
async function openClientSession(url: string, key: string): Promise<ToolSession> {
  const client = new Client({ name: 'mediagate-account-tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return {
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as Array<{ type: string; text: string }>;
      expect(content).to.have.length(1);
      if (result.isError) {
        expect(result.structuredContent).to.equal(undefined);
        return { ok: false, error: JSON.parse(content[0].text) };
      }
      // The same JSON as one text item, for clients that read only text.
      expect(content[0]).to.deep.equal({ type: 'text', text: JSON.stringify(result.structuredContent) });
      return { ok: true, value: result.structuredContent };
    },
    close: () => client.close(),
  };
}
