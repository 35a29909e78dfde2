/**
 * The SDK's vendor HTTP client sends a submission at most once: a POST that may have reached the vendor is
 * never sent again, and says so ("outcome unknown"); a POST the vendor provably did not take, a GET, and a
 * POST declared idempotent (it carries an idempotency key) are retried as before. Real HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import { createVendorHttp, ProviderError, type VendorRequest } from '../../src/kernel/plugin-sdk/index.js';
import { freePort } from '../support/free-port.js';
import { startLoopbackVendor, type LoopbackVendor } from '../support/loopback-vendor.js';

const submission: VendorRequest = { method: 'POST', path: 'v1/jobs', json: { prompt: 'a red fox' } };

/** The error a call rejects with, as a plain object (message and details) to compare whole. */
async function failureOf(call: Promise<unknown>): Promise<{ message: string; details: ProviderError['details'] }> {
  try {
    await call;
  } catch (error) {
    expect(ProviderError.is(error), String(error)).to.equal(true);
    return { message: (error as ProviderError).message, details: (error as ProviderError).details };
  }
  throw new Error('the call succeeded');
}

describe('vendor HTTP client: a submission is sent at most once', () => {
  let vendor: LoopbackVendor;
  let waits: number[];
  const client = (baseUrl: string, timeoutMs = 5_000) =>
    createVendorHttp({ provider: 'acme', baseUrl, timeoutMs, maxAttempts: 3, baseDelayMs: 1 }, undefined, async (ms) => void waits.push(ms));

  beforeEach(async () => {
    vendor = await startLoopbackVendor();
    waits = [];
  });
  afterEach(async () => vendor.close());

  it('sends a POST whose vendor received it and then hangs exactly once, and reports the outcome as unknown', async () => {
    vendor.answer(() => ({ hang: true }));
    const failure = await failureOf(client(vendor.url, 300).request(submission));
    expect(failure).to.deep.equal({
      message: 'acme: timed out on POST /v1/jobs after it may have reached the vendor',
      details: { provider: 'acme', retryable: false, outcomeUnknown: true, vendorCode: 'timeout' },
    });
    expect(vendor.calls('POST', '/v1/jobs')).to.have.length(1);
    expect(JSON.parse(vendor.received[0].body)).to.deep.equal({ prompt: 'a red fox' });
    expect(waits).to.deep.equal([]);
  });

  it('sends a POST whose socket was destroyed after the vendor read it exactly once, outcome unknown', async () => {
    vendor.answer(() => ({ destroySocket: true }));
    const failure = await failureOf(client(vendor.url).request(submission));
    expect(failure).to.deep.equal({
      message: 'acme: network error (UND_ERR_SOCKET) on POST /v1/jobs after it may have reached the vendor',
      details: { provider: 'acme', retryable: false, outcomeUnknown: true, vendorCode: 'network' },
    });
    expect(vendor.calls('POST', '/v1/jobs')).to.have.length(1);
  });

  for (const status of [500, 502, 504]) {
    it(`does not retry a POST answered ${status}: the job may exist`, async () => {
      vendor.answer(() => ({ status, json: { error: { message: 'upstream trouble' } } }));
      const failure = await failureOf(client(vendor.url).request(submission));
      expect(failure.details).to.deep.equal({ provider: 'acme', retryable: false, outcomeUnknown: true, vendorStatus: status, vendorCode: undefined });
      expect(vendor.calls('POST', '/v1/jobs')).to.have.length(1);
    });
  }

  it('still retries a GET answered 500, and its failure stays an ordinary transient error', async () => {
    vendor.answer(() => ({ status: 500, json: {} }));
    const failure = await failureOf(client(vendor.url).request({ path: 'v1/jobs/42' }));
    expect(failure.details).to.deep.equal({ provider: 'acme', retryable: true, vendorStatus: 500, vendorCode: undefined, retryAfterSeconds: undefined });
    expect(vendor.calls('GET', '/v1/jobs/42')).to.have.length(3);
    expect(waits).to.have.length(2);
  });

  it('retries a POST declared idempotent, with the same idempotency key every time', async () => {
    vendor.answer((_request, index) => (index < 2 ? { status: 502, json: {} } : { status: 201, json: { id: 'job_1' } }));
    const answer = await client(vendor.url).request({ ...submission, headers: { 'idempotency-key': 'req_abc123' }, idempotent: true });
    expect({ status: answer.status, data: answer.data }).to.deep.equal({ status: 201, data: { id: 'job_1' } });
    expect(vendor.calls('POST', '/v1/jobs').map((request) => request.headers['idempotency-key'])).to.deep.equal(['req_abc123', 'req_abc123', 'req_abc123']);
  });

  it('retries a POST the vendor turned away (429, 503): it was not taken', async () => {
    vendor.answer((_request, index) => (index === 0 ? { status: 429, json: {} } : index === 1 ? { status: 503, json: {} } : { status: 200, json: { id: 'job_2' } }));
    const answer = await client(vendor.url).request(submission);
    expect(answer.data).to.deep.equal({ id: 'job_2' });
    expect(vendor.calls('POST', '/v1/jobs')).to.have.length(3);
  });

  it('treats a refused connection on a POST as an ordinary transient error, retried', async () => {
    const closedPort = await freePort();
    const failure = await failureOf(client(`http://127.0.0.1:${closedPort}`).request(submission));
    expect(failure).to.deep.equal({
      message: 'acme: network error (ECONNREFUSED) on POST /v1/jobs',
      details: { provider: 'acme', retryable: true, vendorCode: 'network' },
    });
    expect(waits).to.have.length(2);
  });

  it('keeps a 4xx on a POST a permanent error with the vendor message', async () => {
    vendor.answer(() => ({ status: 400, json: { error: 'prompt is required' } }));
    const failure = await failureOf(client(vendor.url).request(submission));
    expect(failure.details).to.deep.equal({ provider: 'acme', retryable: false, vendorStatus: 400, vendorCode: undefined, retryAfterSeconds: undefined });
    expect(vendor.calls('POST', '/v1/jobs')).to.have.length(1);
  });
});
