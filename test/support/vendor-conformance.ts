/**
 * Vendor-agnostic test kit for vendor plugins: nock set-up, harnesses per test, a ProviderError catcher, real PNG
 * bytes, a multipart reader, whole-output checks for images and videos, the plugin-definition suite, and the
 * failure suite every vendor call must pass, a synchronous render, a submission, a poll or a download alike: a
 * documented 4xx is permanent with the vendor's message, a 429 waits for Retry-After and succeeds, a 5xx burst
 * opens the breaker (after which calls fail fast without reaching the vendor), a submission answered 500 is never
 * resent while any other call answered 502 is retried, and a 2xx without the result is a permanent "malformed
 * response".
 */
import { expect } from 'chai';
import nock from 'nock';
import sharp from 'sharp';
import type { JsonObject, PluginContext, ProviderPlugin, RoutedModel, StartResult, StatusResult } from '../../src/kernel/plugin-sdk/index.js';
import { ProviderError } from '../../src/kernel/plugin-sdk/index.js';
import type { BreakerSettings } from '../../src/kernel/plugins/index.js';
import { createPluginHarness, type PluginHarness } from './plugin-harness.js';

/** Hosted files as the harness serves them: `http://gateway.test/files/<request>/<key>.<ext>`. */
export const HOSTED_URL = /^http:\/\/gateway\.test\/files\/req_[^/]+\/[0-9a-f]{16}\.[a-z0-9]+$/;

/** No real network for the enclosing `describe`; interceptors are dropped after each test. */
export function useNock(): void {
  before(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  after(() => nock.enableNetConnect());
}

/**
 * A fresh plugin harness for every test of the enclosing `describe`, with the network closed to anything nock
 * does not answer; `onHarness` receives each new harness.
 */
export function usePluginHarness(
  plugin: ProviderPlugin<any>,
  config: Record<string, unknown>,
  onHarness: (harness: PluginHarness) => void,
  breaker: Partial<BreakerSettings> = {},
): { replace(config: Record<string, unknown>, breaker?: Partial<BreakerSettings>): Promise<void> } {
  let harness: PluginHarness | undefined;
  const open = async (withConfig: Record<string, unknown>, withBreaker: Partial<BreakerSettings>) => {
    await harness?.close();
    harness = await createPluginHarness(plugin, withConfig, withBreaker);
    onHarness(harness);
  };
  useNock();
  beforeEach(() => open(config, breaker));
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });
  /** For a test that needs other settings or breaker thresholds: closes this test's harness and opens another. */
  return { replace: (withConfig, withBreaker = {}) => open(withConfig, withBreaker) };
}

/** `usePluginHarness` for tests that read the current harness through the returned accessor. */
export function useHarnessPerTest(plugin: ProviderPlugin<any>, config: Record<string, unknown>, breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  let current: PluginHarness | undefined;
  usePluginHarness(plugin, config, (harness) => void (current = harness), breaker);
  return () => {
    if (!current) throw new Error(`the ${plugin.id} harness exists only inside a test`);
    return current;
  };
}

export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  if (!ProviderError.is(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

/**
 * A refusal made before anything was sent (the SDK's `unsupportedInput`): permanent, with exactly `message`, and
 * none of the `untouched` vendor interceptors called.
 */
export async function expectRefusedBeforeSending(call: Promise<unknown>, message: string, ...untouched: nock.Scope[]): Promise<void> {
  const error = await failure(call);
  expect(error.retryable).to.equal(false);
  expect(error.message).to.equal(message);
  expect(error.details.vendorCode).to.equal('unsupported_input');
  for (const scope of untouched) expect(scope.isDone(), 'a vendor call was made').to.equal(false);
}

/** A real 1x1 PNG, for tables built before any hook runs. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** A real, decodable PNG of one colour. */
export function pngBytes(colour: string, width = 4, height = 4): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

/** Three distinct real images: a square red, a landscape blue and a portrait green PNG. */
export function threePngs(): Promise<[Buffer, Buffer, Buffer]> {
  return Promise.all([pngBytes('#ff0000'), pngBytes('#0000ff', 6, 4), pngBytes('#00ff00', 4, 6)]);
}

/**
 * A multipart body as nock hands it to a body matcher (binary bodies arrive hex-encoded) read back into
 * FormData with the request's own boundary.
 */
export async function readMultipart(body: unknown, contentType: string): Promise<FormData> {
  const text = String(body);
  const bytes = /^[0-9a-f]+$/i.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : Buffer.from(text);
  return new Response(bytes, { headers: { 'content-type': contentType } }).formData();
}

/**
 * Checks a finished image.generate or image.edit output against the spec's fields and the manifest, and that
 * our hosted copies hold exactly the vendor's images. `providerUrls` are the vendor's own links; for base64
 * vendors (none given) `provider_image_urls` are our URLs.
 */
export async function expectImageOutput(
  harness: PluginHarness,
  operation: 'image.generate' | 'image.edit',
  output: JsonObject,
  expected: { provider: string; model: string; taskId: string | RegExp; aspectRatio?: string; providerUrls?: string[] },
  images: Buffer[],
): Promise<void> {
  const urls = operation === 'image.generate' ? (output.image_urls as string[]) : [output.image_url as string];
  for (const url of urls) expect(url).to.match(HOSTED_URL);
  if (expected.taskId instanceof RegExp) expect(output.task_id).to.match(expected.taskId);
  const head = {
    task_id: expected.taskId instanceof RegExp ? output.task_id : expected.taskId,
    asset_type: 'image',
    status: 'succeeded',
    image_url: urls[0],
    provider: expected.provider,
    model: expected.model,
  };
  const providerUrls = expected.providerUrls ?? urls;
  const generated = { image_urls: urls, provider_image_urls: providerUrls, provider_image_count: providerUrls.length, aspect_ratio: expected.aspectRatio };
  expect(output).to.deep.equal(operation === 'image.generate' ? { ...head, ...generated } : head);
  expect(harness.checkOutput(operation, output)).to.deep.equal([]);
  expect(await Promise.all(urls.map((url) => harness.hostedBytes(url)))).to.deep.equal(images);
}

/**
 * Checks a finished video output whole (the spec's fields and the operation's own, e.g. `duration` and
 * `aspect_ratio`) against the manifest, and that our hosted MP4 copy holds exactly the vendor's bytes.
 */
export async function expectVideoOutput(
  harness: PluginHarness,
  operation: string,
  result: StartResult | StatusResult,
  expected: { taskId: string; provider: string; model: string; fields?: JsonObject },
  bytes: Buffer,
): Promise<JsonObject> {
  if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
  const output = result.done;
  expect(output.video_url).to.match(HOSTED_URL).and.match(/\.mp4$/);
  expect(output).to.deep.equal({
    task_id: expected.taskId,
    asset_type: 'video',
    status: 'succeeded',
    provider: expected.provider,
    model: expected.model,
    video_url: output.video_url,
    ...expected.fields,
  });
  expect(harness.checkOutput(operation, output)).to.deep.equal([]);
  expect(await harness.hostedBytes(output.video_url as string)).to.deep.equal(bytes);
  return output;
}

/**
 * What every API-key plugin promises about itself: `operations` finish in start, `polled` are vendor tasks that
 * `status` follows, only `cancellable` have `cancel` and only `reconciled` have `reconcile`; it is enabled by
 * its key alone; its settings are the SDK's three, with the vendor's base URL and (if any) timeout as defaults;
 * and a plugin that serves one vendor model only refuses a route to `otherModel` before any call.
 */
export function describePluginBasics<Config>(
  plugin: ProviderPlugin<Config>,
  expected: {
    operations: string[];
    polled?: string[];
    cancellable?: string[];
    reconciled?: string[];
    defaultBaseUrl: string;
    defaultTimeoutMs?: number;
    config: Config;
    otherModel?: { operation: string; route: RoutedModel; message: string };
  },
): void {
  describe(`${plugin.id} plugin: definition`, () => {
    const polled = expected.polled ?? [];
    const served = [...expected.operations.map((operation) => `${operation} finished in start`), ...polled.map((operation) => `${operation} as a polled task`)];
    it(`serves ${served.join(', ')}`, () => {
      expect(Object.keys(plugin.operations).sort()).to.deep.equal([...expected.operations, ...polled].sort());
      for (const [operation, handler] of Object.entries(plugin.operations)) expect(typeof handler.status, operation).to.equal(polled.includes(operation) ? 'function' : 'undefined');
    });

    const cancellable = expected.cancellable ?? [];
    const reconciled = expected.reconciled ?? [];
    it(`can cancel ${cancellable.join(', ') || 'none of them'} and reconcile ${reconciled.join(', ') || 'none of them'}`, () => {
      for (const [operation, handler] of Object.entries(plugin.operations)) {
        expect(typeof handler.cancel, `${operation} cancel`).to.equal(cancellable.includes(operation) ? 'function' : 'undefined');
        expect(typeof handler.reconcile, `${operation} reconcile`).to.equal(reconciled.includes(operation) ? 'function' : 'undefined');
      }
    });

    it('is enabled only with an API key', () => {
      expect(plugin.isEnabled({} as Config)).to.equal(false);
      expect(plugin.isEnabled({ api_key: '' } as Config)).to.equal(false);
      expect(plugin.isEnabled({ base_url: expected.defaultBaseUrl } as Config)).to.equal(false);
      expect(plugin.isEnabled(expected.config)).to.equal(true);
    });

    it('has snake_case settings, nothing else, with the documented base URL and the vendor\'s timeout as defaults', () => {
      const properties = plugin.configSchema.properties as Record<string, { default?: unknown }>;
      expect(plugin.configSchema).to.deep.include({ additionalProperties: false });
      expect(properties).to.have.all.keys('api_key', 'base_url', 'timeout_ms');
      expect(properties.base_url.default).to.equal(expected.defaultBaseUrl);
      expect(properties.timeout_ms.default).to.equal(expected.defaultTimeoutMs);
    });

    const other = expected.otherModel;
    if (other) {
      it(`refuses a route to ${other.route.vendorModel}, a vendor model it does not serve, before any call`, async () => {
        // The model is checked first, so the context is never used.
        const error = await failure(plugin.operations[other.operation].start({ prompt: 'x' }, {} as PluginContext<Config>, other.route));
        expect(error.retryable).to.equal(false);
        expect(error.details.vendorCode).to.equal('unsupported_model');
        expect(error.message).to.equal(other.message);
      });
    }
  });
}

/** A vendor error body, and the message the client must read from it (asserted when given). */
export interface VendorErrorReply {
  body: Record<string, unknown> | string;
  message?: string;
}

/** A documented refusal: permanent, with the vendor's message and (when given) its code. */
export interface VendorRejection {
  status: number;
  body: Record<string, unknown> | string;
  message: string;
  code?: string;
}

/**
 * One vendor call as an operation makes it: a synchronous render, an asynchronous submission, a poll, a download.
 * Submissions (POST, PATCH) are sent at most once; other calls change nothing and are retried.
 */
export interface VendorCallCase {
  /** Names the suite, e.g. `create (POST /v1/video_generation)`. */
  name: string;
  /** The operation whose output a finished answer is checked against. */
  operation: string;
  /** The call through the harness: a `start` or a `status`. */
  call(harness: PluginHarness): Promise<StartResult | StatusResult>;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /**
   * The path as error messages name it. With it, a message is asserted whole
   * (`<provider>: <message> (HTTP <status> on <method> <path>)`); without it, only as included.
   */
  path?: string;
  /** The endpoint (host, method, path and auth header) for one more reply. */
  endpoint(): nock.Interceptor;
  /** The calls of the same run before this one (a poll before the download), answered once each. */
  earlier?(): void;
  /** Interceptors for the inputs the call fetches first (source images), persisted for the test. */
  inputs?(): void;
  /**
   * A documented success: its body (and status, 200 by default), what the call then gives (a task, still
   * pending, or done: checked against the manifest), and any interceptors the answer leads to (its file).
   */
  answer: { status?: number; body: Record<string, unknown> | Buffer; gives: 'task' | 'pending' | 'done'; taskId?: string; follow?(): void };
  rejections: VendorRejection[];
  /**
   * The vendor's bodies for a 429 (read for nothing but the wait: the call then succeeds), a 503 and a 500;
   * by default an OpenAI-style `{error: {message}}`.
   */
  rateLimited?: Pick<VendorErrorReply, 'body'>;
  unavailable?: VendorErrorReply;
  internalError?: VendorErrorReply;
  /** A 2xx without what the call needs, and the permanent error's message. */
  malformed?: { status?: number; body: Record<string, unknown>; message: string | RegExp };
}

const RATE_LIMITED: VendorErrorReply = { body: { error: { message: 'Rate limit reached' } } };
const UNAVAILABLE: VendorErrorReply = { body: { error: { message: 'The service is currently unavailable.' } } };
const INTERNAL_ERROR: VendorErrorReply = { body: { error: { message: 'Internal server error' } } };

/**
 * The failure suite every vendor call must pass: a documented 4xx is permanent with the vendor's message, a 429
 * waits for Retry-After and succeeds, a 5xx burst opens the breaker (after which calls fail fast without reaching
 * the vendor), a submission answered 500 is never resent (its outcome is unknown) while any other call answered
 * 502 is retried, and a 2xx without the result is a permanent "malformed response".
 */
export function describeVendorCallFailures<Config>(plugin: ProviderPlugin<Config>, config: Record<string, unknown>, cases: VendorCallCase[]): void {
  for (const call of cases) {
    describe(`${call.name}: vendor failures`, () => {
      useNock();
      const submission = call.method === 'POST' || call.method === 'PATCH';
      const expectMessage = (error: ProviderError, status: number, message: string | undefined) => {
        if (message === undefined) return;
        if (call.path === undefined) expect(error.message).to.include(message);
        else expect(error.message).to.equal(`${plugin.id}: ${message} (HTTP ${status} on ${call.method} ${call.path})`);
      };
      const answer = () => {
        call.endpoint().reply(call.answer.status ?? 200, call.answer.body);
        call.answer.follow?.();
      };
      const expectAnswered = (harness: PluginHarness, result: StartResult | StatusResult) => {
        expect(Object.keys(result)).to.deep.equal([call.answer.gives]);
        if (call.answer.taskId !== undefined) expect(result).to.have.nested.property('task.taskId', call.answer.taskId);
        if ('done' in result) expect(harness.checkOutput(call.operation, result.done)).to.deep.equal([]);
        expect(nock.pendingMocks()).to.deep.equal([]);
      };
      // One harness for the tests that leave the breaker closed; the breaker tests open their own.
      let harness: PluginHarness;
      before(async () => {
        harness = await createPluginHarness(plugin, config);
      });
      beforeEach(() => {
        harness.sleeps.length = 0;
        call.inputs?.();
      });
      after(() => harness.close());

      for (const rejection of call.rejections) {
        it(`fails permanently with the vendor's message on a ${rejection.status}`, async () => {
          call.earlier?.();
          call.endpoint().reply(rejection.status, rejection.body);
          const error = await failure(call.call(harness));
          expect(error.retryable).to.equal(false);
          expectMessage(error, rejection.status, rejection.message);
          expect(error.details.vendorStatus).to.equal(rejection.status);
          if (rejection.code !== undefined) expect(error.details.vendorCode).to.equal(rejection.code);
          expect(harness.sleeps).to.deep.equal([]);
        });
      }

      it('waits for Retry-After on a 429, then succeeds', async () => {
        call.earlier?.();
        call.endpoint().reply(429, (call.rateLimited ?? RATE_LIMITED).body, { 'Retry-After': '7' });
        answer();
        const result = await call.call(harness);
        expect(harness.sleeps).to.deep.equal([7000]);
        expectAnswered(harness, result);
      });

      it('keeps 5xx retryable, opens the breaker after a burst, then fails fast without calling the vendor', async () => {
        const fresh = await createPluginHarness(plugin, config, { volume_threshold: 2 });
        const unavailable = call.unavailable ?? UNAVAILABLE;
        try {
          for (let attempt = 0; attempt < 2; attempt += 1) {
            call.earlier?.();
            // Three attempts per call (the vendor client's retries; a 503 proves even a submission was not taken).
            call.endpoint().times(3).reply(503, unavailable.body);
            const error = await failure(call.call(fresh));
            expect(error.retryable).to.equal(true);
            expect(error.details.vendorStatus).to.equal(503);
            expectMessage(error, 503, unavailable.message);
          }
          expect(fresh.breakerState()).to.equal('open');
          expect(vendorMocksLeft()).to.deep.equal([]);
          call.earlier?.();
          call.endpoint().reply(call.answer.status ?? 200, call.answer.body);
          const waiting = nock.pendingMocks();

          const fast = await failure(call.call(fresh));

          expect(fast.retryable).to.equal(true);
          expect(fast.details.vendorCode).to.equal('EOPENBREAKER');
          expect(fast.message).to.equal(`provider ${plugin.id} is unavailable (circuit open)`);
          expect(nock.pendingMocks()).to.deep.equal(waiting);
        } finally {
          await fresh.close();
        }
      });

      if (submission) {
        it('never resends a submission answered 500: its outcome is unknown, and it counts toward the breaker', async () => {
          const fresh = await createPluginHarness(plugin, config, { volume_threshold: 2 });
          const internalError = call.internalError ?? INTERNAL_ERROR;
          try {
            // One reply per call: the vendor may have created the job before failing, so no layer resends it.
            call.endpoint().times(2).reply(500, internalError.body);
            for (let attempt = 0; attempt < 2; attempt += 1) {
              call.earlier?.();
              const error = await failure(call.call(fresh));
              expect(ProviderError.isOutcomeUnknown(error)).to.equal(true);
              expect(error.retryable).to.equal(false);
              expectMessage(error, 500, internalError.message);
            }
            expect(vendorMocksLeft()).to.deep.equal([]);
            expect(fresh.breakerState()).to.equal('open');
          } finally {
            await fresh.close();
          }
        });
      } else {
        it(`retries a ${call.method} answered 502, as a call that changes nothing, then succeeds`, async () => {
          call.earlier?.();
          call.endpoint().reply(502, 'Bad Gateway');
          answer();
          const result = await call.call(harness);
          expect(harness.sleeps).to.have.length(1);
          expectAnswered(harness, result);
        });
      }

      const malformed = call.malformed;
      if (malformed) {
        it('fails permanently on a 2xx without the result', async () => {
          call.earlier?.();
          call.endpoint().reply(malformed.status ?? 200, malformed.body);
          const error = await failure(call.call(harness));
          expect(error.retryable).to.equal(false);
          if (typeof malformed.message === 'string') expect(error.message).to.equal(malformed.message);
          else expect(error.message).to.match(malformed.message);
        });
      }
    });
  }
}

/** Interceptors not yet answered, but those of inputs (persisted, and not fetched once the breaker is open). */
function vendorMocksLeft(): string[] {
  return nock.pendingMocks().filter((mock) => !mock.includes('/inputs/'));
}

/** One synchronous vendor endpoint as one operation reaches it: `start` answers the finished output. */
export interface VendorEndpointCase {
  name: string;
  operation: string;
  model?: string;
  input: JsonObject;
  /** The endpoint (host, method, path and auth header) for one more reply. */
  endpoint(): nock.Interceptor;
  /** Interceptors for the inputs the call fetches first (source images), persisted for the test. */
  inputs?(): void;
  /** A documented success body. */
  success: Record<string, unknown>;
  /** A 2xx body that lacks the result. */
  malformed: Record<string, unknown>;
  malformedMessage: string | RegExp;
  /** A documented 4xx and the message the client must get from it. */
  rejection: { status: number; body: Record<string, unknown>; message: string };
}

/** The failure suite for synchronous renders (a POST whose answer is the output). */
export function describeVendorFailures<Config>(plugin: ProviderPlugin<Config>, config: Record<string, unknown>, cases: VendorEndpointCase[]): void {
  describeVendorCallFailures(
    plugin,
    config,
    cases.map((endpoint) => ({
      name: endpoint.name,
      operation: endpoint.operation,
      call: (harness) => harness.start(endpoint.operation, endpoint.input, endpoint.model),
      method: 'POST',
      endpoint: endpoint.endpoint,
      inputs: endpoint.inputs,
      answer: { body: endpoint.success, gives: 'done' },
      rejections: [endpoint.rejection],
      malformed: { body: endpoint.malformed, message: endpoint.malformedMessage },
    })),
  );
}
