/**
 * Vendor-agnostic test kit for vendor plugins: nock set-up, a ProviderError catcher, real PNG bytes, a multipart
 * reader, and the failure suite every vendor endpoint must pass — a documented 4xx is permanent with the
 * vendor's message, a 429 waits for Retry-After and succeeds, a 5xx burst opens the breaker (after which calls
 * fail fast without reaching the vendor), and a 2xx without the result is a permanent "malformed response".
 */
import { expect } from 'chai';
import nock from 'nock';
import sharp from 'sharp';
import type { JsonObject, ProviderPlugin } from '../../src/kernel/plugin-sdk/index.js';
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

export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  if (!ProviderError.is(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
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
 * our hosted copies hold exactly the vendor's images. For base64 vendors `provider_image_urls` are our URLs.
 */
export async function expectImageOutput(
  harness: PluginHarness,
  operation: 'image.generate' | 'image.edit',
  output: JsonObject,
  expected: { provider: string; model: string; taskId: string | RegExp; aspectRatio?: string },
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
  const generated = { image_urls: urls, provider_image_urls: urls, provider_image_count: urls.length, aspect_ratio: expected.aspectRatio };
  expect(output).to.deep.equal(operation === 'image.generate' ? { ...head, ...generated } : head);
  expect(harness.checkOutput(operation, output)).to.deep.equal([]);
  expect(await Promise.all(urls.map((url) => harness.hostedBytes(url)))).to.deep.equal(images);
}

/** What every synchronous API-key plugin promises about itself. */
export function describePluginBasics<Config>(plugin: ProviderPlugin<Config>, expected: { operations: string[]; defaultBaseUrl: string; config: Config }): void {
  describe(`${plugin.id} plugin: definition`, () => {
    it('serves its operations, each finished in start', () => {
      expect(Object.keys(plugin.operations).sort()).to.deep.equal([...expected.operations].sort());
      for (const handler of Object.values(plugin.operations)) expect(handler.status).to.equal(undefined);
    });

    it('is enabled only with an API key', () => {
      expect(plugin.isEnabled({} as Config)).to.equal(false);
      expect(plugin.isEnabled({ api_key: '' } as Config)).to.equal(false);
      expect(plugin.isEnabled(expected.config)).to.equal(true);
    });

    it('has snake_case settings with the documented base URL as default', () => {
      const properties = plugin.configSchema.properties as Record<string, { default?: unknown }>;
      expect(properties).to.have.all.keys('api_key', 'base_url', 'timeout_ms');
      expect(properties.base_url.default).to.equal(expected.defaultBaseUrl);
    });
  });
}

/** One vendor endpoint as one operation reaches it. */
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

export function describeVendorFailures<Config>(plugin: ProviderPlugin<Config>, config: Record<string, unknown>, cases: VendorEndpointCase[]): void {
  for (const call of cases) {
    describe(`${call.name}: vendor failures`, () => {
      useNock();
      // One harness for the tests that leave the breaker closed; the breaker test opens its own.
      let harness: PluginHarness;
      before(async () => {
        harness = await createPluginHarness(plugin, config);
      });
      beforeEach(() => {
        harness.sleeps.length = 0;
        call.inputs?.();
      });
      after(() => harness.close());

      it(`fails permanently with the vendor's message on a ${call.rejection.status}`, async () => {
        call.endpoint().reply(call.rejection.status, call.rejection.body);
        const error = await failure(harness.start(call.operation, call.input, call.model));
        expect(error.retryable).to.equal(false);
        expect(error.message).to.include(call.rejection.message);
        expect(error.details.vendorStatus).to.equal(call.rejection.status);
        expect(harness.sleeps).to.deep.equal([]);
      });

      it('waits for Retry-After on a 429, then succeeds', async () => {
        call.endpoint().reply(429, { error: { message: 'Rate limit reached' } }, { 'Retry-After': '7' });
        call.endpoint().reply(200, call.success);
        const result = await harness.start(call.operation, call.input, call.model);
        expect(harness.sleeps).to.deep.equal([7000]);
        expect('done' in result && harness.checkOutput(call.operation, result.done)).to.deep.equal([]);
        expect(nock.pendingMocks()).to.deep.equal([]);
      });

      it('keeps 5xx retryable, opens the breaker after a burst, then fails fast without calling the vendor', async () => {
        const fresh = await createPluginHarness(plugin, config, { volume_threshold: 2 });
        try {
          // Three attempts per call (the vendor client's retries), two calls.
          call.endpoint().times(6).reply(503, { error: { message: 'The service is currently unavailable.' } });
          for (let i = 0; i < 2; i += 1) {
            const error = await failure(fresh.start(call.operation, call.input, call.model));
            expect(error.retryable).to.equal(true);
            expect(error.details.vendorStatus).to.equal(503);
          }
          expect(fresh.breakerState()).to.equal('open');
          const fast = await failure(fresh.start(call.operation, call.input, call.model));
          expect(fast.retryable).to.equal(true);
          expect(fast.details.vendorCode).to.equal('EOPENBREAKER');
          expect(nock.pendingMocks().filter((mock) => !mock.includes('/inputs/'))).to.deep.equal([]);
        } finally {
          await fresh.close();
        }
      });

      it('never resends a submission answered 500: its outcome is unknown, and it counts toward the breaker', async () => {
        const fresh = await createPluginHarness(plugin, config, { volume_threshold: 2 });
        try {
          // One attempt per call: the vendor may have created the job before failing, so no layer resends it.
          call.endpoint().times(2).reply(500, { error: { message: 'Internal server error' } });
          for (let i = 0; i < 2; i += 1) {
            const error = await failure(fresh.start(call.operation, call.input, call.model));
            expect(ProviderError.isOutcomeUnknown(error)).to.equal(true);
            expect(error.retryable).to.equal(false);
          }
          expect(nock.pendingMocks().filter((mock) => !mock.includes('/inputs/'))).to.deep.equal([]);
          expect(fresh.breakerState()).to.equal('open');
        } finally {
          await fresh.close();
        }
      });

      it('fails permanently on a 2xx without the result', async () => {
        call.endpoint().reply(200, call.malformed);
        const error = await failure(harness.start(call.operation, call.input, call.model));
        expect(error.retryable).to.equal(false);
        if (typeof call.malformedMessage === 'string') expect(error.message).to.equal(call.malformedMessage);
        else expect(error.message).to.match(call.malformedMessage);
      });
    });
  }
}
