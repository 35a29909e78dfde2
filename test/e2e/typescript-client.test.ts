/**
 * The TypeScript client (clients/typescript) driving a real gateway: create, wait (honouring `poll_after_ms`), an
 * output typed by its operation, idempotent replay, errors as typed problems, a wait that times out, a cancel
 * through the raw `api` client, and the package's quickstart example run as a user would.
 *
 * The `@ts-expect-error` lines are the compile-time half: `npm test` type-checks this file first, and a line that
 * stops being an error (an output no longer narrowed by operation, an input no longer checked) fails it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import {
  createMediagateClient,
  MediagateApiError,
  MediagateWaitTimeoutError,
  type MediagateClient,
  type ProblemCode,
} from '../../clients/typescript/src/index.js';
import { projectRoot } from '../../src/kernel/config/index.js';
import { startTestService, type TestService } from '../support/test-service.js';

interface SeenCall {
  method: string;
  path: string;
  atMs: number;
  pollAfterMs?: number;
  prefer: string | null;
  preferenceApplied?: string | null;
}

describe('TypeScript client (clients/typescript)', function () {
  this.timeout(120_000);
  let service: TestService;

  before(async () => {
    service = await startTestService();
  });
  after(async () => service.stop());

  /** A client whose every call is recorded with its time and, for reads, the `poll_after_ms` it was told. */
  async function recordedClient(credits: number): Promise<{ client: MediagateClient; calls: SeenCall[]; accountId: string }> {
    const { key, accountId } = await service.createKey({ credits });
    const calls: SeenCall[] = [];
    const client = createMediagateClient({
      baseUrl: service.url,
      apiKey: key,
      fetch: async (request) => {
        const call: SeenCall = { method: request.method, path: new URL(request.url).pathname, atMs: Date.now(), prefer: request.headers.get('prefer') };
        calls.push(call);
        const response = await fetch(request);
        call.preferenceApplied = response.headers.get('preference-applied');
        if (request.method === 'GET' && response.ok) call.pollAfterMs = ((await response.clone().json()) as { poll_after_ms?: number }).poll_after_ms;
        return response;
      },
    });
    return { client, calls, accountId };
  }

  const lighthouse = { prompt: 'a lighthouse at dawn', model: 'nano-banana-pro', aspect_ratio: '16:9', resolution: '1K' } as const;

  it('creates a request, waits for it with plain reads honouring poll_after_ms, and reads an output typed by the operation', async () => {
    const { client, calls } = await recordedClient(1000);
    const estimate = await client.estimate('image.generate', lighthouse);
    expect(estimate).to.deep.equal({ operation: 'image.generate', model: 'nano-banana-pro', billableCredits: estimate.billableCredits, creditsRemaining: 1000, affordable: true });
    expect(estimate.billableCredits).to.be.greaterThan(0);

    const accepted = await client.createRequest('image.generate', lighthouse);
    expect(accepted).to.deep.equal({
      id: accepted.id,
      status: 'queued',
      operation: 'image.generate',
      poll_after_ms: accepted.poll_after_ms,
      urls: { get: `${service.url}/api/v1/requests/${accepted.id}` },
      replayed: false,
    });
    expect(accepted.id).to.match(/^req_/);
    expect(accepted.poll_after_ms).to.be.greaterThan(0);
    const createdAtMs = Date.now();

    const result = await client.waitForResult(accepted, { timeoutMs: 60_000, longPoll: false });
    if (result.status !== 'succeeded') throw new Error(`expected success, got ${result.status}: ${result.errorMessage}`);
    expect(result).to.include({ id: accepted.id, operation: 'image.generate', errorMessage: null, billableCredits: estimate.billableCredits });
    expect(result.credits).to.deep.equal({
      charged: estimate.billableCredits,
      refunded: 0,
      net: estimate.billableCredits,
      entries: [{ kind: 'debit', amount: -estimate.billableCredits, note: result.credits.entries[0]!.note, atMs: result.credits.entries[0]!.atMs }],
    });

    const imageUrl: string = result.output.image_url;
    const provider: string = result.output.provider;
    expect(provider).to.equal('local');
    expect(result.output.image_urls).to.deep.equal([imageUrl]);
    // @ts-expect-error an image.generate output has no audio_url: `output` is narrowed by the operation
    const audioUrl: string = result.output.audio_url;
    expect(audioUrl).to.equal(undefined);
    const image = await fetch(imageUrl);
    expect(image.status).to.equal(200);
    expect(image.headers.get('content-type')).to.equal('image/png');
    expect([...new Uint8Array(await image.arrayBuffer()).subarray(0, 4)]).to.deep.equal([0x89, 0x50, 0x4e, 0x47]);

    // Every read waited at least what the answer before it said: the create's, then each pending read's.
    const reads = calls.filter((call) => call.method === 'GET' && call.path === `/api/v1/requests/${accepted.id}`);
    expect(reads.length).to.be.greaterThan(0);
    expect(reads[0]!.atMs - createdAtMs).to.be.at.least(accepted.poll_after_ms - 5);
    for (let index = 1; index < reads.length; index += 1) {
      expect(reads[index]!.atMs - reads[index - 1]!.atMs).to.be.at.least(reads[index - 1]!.pollAfterMs! - 5);
    }
    expect(reads.at(-1)!.pollAfterMs).to.equal(undefined);
    expect(reads.map((read) => read.prefer)).to.deep.equal(reads.map(() => null));

    const status = await client.status();
    expect(status.creditsRemaining).to.equal(1000 - estimate.billableCredits);
  });

  it('waits by long poll by default: the first read is held until the request finishes, never past timeoutMs', async () => {
    const { client, calls } = await recordedClient(1000);
    const accepted = await client.createRequest('image.generate', lighthouse);
    const result = await client.waitForResult(accepted, { timeoutMs: 30_000 });
    expect(result.status).to.equal('succeeded');
    const reads = calls.filter((call) => call.method === 'GET' && call.path === `/api/v1/requests/${accepted.id}`);
    // The local image finishes within the 29-30 s the first read may be held: one read, sent at once, held.
    expect(reads).to.have.length(1);
    expect(reads[0]!.prefer).to.match(/^wait=(29|30)$/);
    expect(reads[0]!.preferenceApplied).to.equal(reads[0]!.prefer);

    // Under a second left: a plain read, so the wait never outlives the caller's deadline.
    const video = await client.createRequest('video.generate', { prompt: 'waves rolling onto a beach', duration: 10 });
    const startedAtMs = Date.now();
    const timedOut = await client.waitForResult(video, { timeoutMs: 1_500 }).catch((error: unknown) => error);
    expect(timedOut).to.be.instanceOf(MediagateWaitTimeoutError);
    expect(Date.now() - startedAtMs).to.be.below(2_500);
    const videoReads = calls.filter((call) => call.method === 'GET' && call.path === `/api/v1/requests/${video.id}`);
    expect(videoReads[0]!.prefer).to.equal('wait=1');
    await client.api.POST('/api/v1/requests/{requestId}/cancel', { params: { path: { requestId: video.id } } });
  });

  it('replays an idempotent create (same id, replayed: true, charged once) and refuses the key for another body', async () => {
    const { client } = await recordedClient(1000);
    const first = await client.createRequest('image.generate', lighthouse, { idempotencyKey: 'client-order-1' });
    const second = await client.createRequest('image.generate', lighthouse, { idempotencyKey: 'client-order-1' });
    expect(first.replayed).to.equal(false);
    expect(second).to.deep.equal({ ...first, replayed: true });
    const { billableCredits } = await client.waitForResult(first, { timeoutMs: 60_000 });
    expect((await client.status()).creditsRemaining).to.equal(1000 - billableCredits);

    const reused = await client.createRequest('image.generate', { ...lighthouse, prompt: 'another lighthouse' }, { idempotencyKey: 'client-order-1' }).catch((error: unknown) => error);
    expect(reused).to.be.instanceOf(MediagateApiError);
    const problem = (reused as MediagateApiError).problem;
    expect(problem).to.deep.equal({
      type: problem!.type,
      title: 'Idempotency key reused with a different request body',
      status: 422,
      detail: problem!.detail,
      code: 'MG_IDEMPOTENCY_KEY_REUSED',
      instance: '/api/v1/requests',
    });
  });

  it('turns error answers into MediagateApiError with the typed problem', async () => {
    const { client } = await recordedClient(1000);
    // @ts-expect-error image.generate takes no duration_seconds: inputs are checked per operation at compile time
    const invalid = await client.createRequest('image.generate', { ...lighthouse, duration_seconds: 5 }).catch((error: unknown) => error);
    expect(invalid).to.be.instanceOf(MediagateApiError);
    const validation = invalid as MediagateApiError;
    const code: ProblemCode | undefined = validation.code;
    expect(code).to.equal('MG_VALIDATION_FAILED');
    expect(validation.status).to.equal(422);
    expect(validation.problem!.errors!.map((error) => error.path)).to.deep.equal(['/input/duration_seconds']);

    const poor = createMediagateClient({ baseUrl: service.url, apiKey: (await service.createKey({ credits: 0 })).key });
    const refused = await poor.createRequest('image.generate', lighthouse).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(MediagateApiError);
    expect((refused as MediagateApiError).code).to.equal('MG_INSUFFICIENT_CREDITS');
    expect((refused as MediagateApiError).status).to.equal(402);

    const missing = await client.getRequest('req_0000000000000000000000000').catch((error: unknown) => error);
    expect(missing).to.be.instanceOf(MediagateApiError);
    expect((missing as MediagateApiError).code).to.equal('MG_REQUEST_NOT_FOUND');

    const stranger = createMediagateClient({ baseUrl: service.url, apiKey: 'mg_not_a_key' });
    const unauthenticated = await stranger.status().catch((error: unknown) => error);
    expect((unauthenticated as MediagateApiError).code).to.equal('MG_UNAUTHENTICATED');
  });

  it('stops waiting at timeoutMs and on abort; a cancelled request resolves as failed and refunded', async () => {
    const { client } = await recordedClient(1000);
    const accepted = await client.createRequest('video.generate', { prompt: 'waves rolling onto a beach', duration: 10 });
    const timedOut = await client.waitForResult(accepted, { timeoutMs: 200 }).catch((error: unknown) => error);
    expect(timedOut).to.be.instanceOf(MediagateWaitTimeoutError);
    expect((timedOut as MediagateWaitTimeoutError).requestId).to.equal(accepted.id);
    expect(['queued', 'processing']).to.include((timedOut as MediagateWaitTimeoutError).lastSeen!.status);

    const controller = new AbortController();
    const waiting = client.waitForResult(accepted, { signal: controller.signal }).catch((error: unknown) => error);
    controller.abort(new Error('the user left'));
    expect(((await waiting) as Error).message).to.equal('the user left');

    // Everything beyond the lifecycle is on `api`, the openapi-fetch client of the whole document.
    let cancel = await client.api.POST('/api/v1/requests/{requestId}/cancel', { params: { path: { requestId: accepted.id } } });
    for (let attempt = 0; cancel.response.status === 409 && attempt < 50; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      cancel = await client.api.POST('/api/v1/requests/{requestId}/cancel', { params: { path: { requestId: accepted.id } } });
    }
    expect(cancel.response.status).to.equal(200);

    const result = await client.waitForResult(accepted.id, { timeoutMs: 10_000 });
    expect(result).to.include({ id: accepted.id, status: 'failed', operation: 'video.generate', errorMessage: 'the request was cancelled by the client' });
    expect(result.credits.net).to.equal(0);
    expect((await client.status()).creditsRemaining).to.equal(1000);
  });

  it('runs the quickstart example against the gateway', async () => {
    const { key } = await service.createKey({ credits: 1000 });
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'clients/typescript/examples/quickstart.ts'], {
      cwd: projectRoot,
      env: { ...process.env, MEDIAGATE_URL: service.url, MEDIAGATE_API_KEY: key },
    });
    const lines = stdout.trim().split('\n');
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(/^image\.generate costs \d+ credits; 1000 left$/);
    expect(lines[1]).to.match(/^created req_\w+; first look in \d+ ms$/);
    expect(lines[2]).to.match(new RegExp(`^${service.url}/files/req_\\w+/\\S+\\.png \\(local, \\d+ credits\\)$`));
  });
});

