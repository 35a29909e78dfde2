/**
 * The HTTP client every vendor plugin uses (`ctx.http(...)`), so no plugin writes its own timeouts,
 * retries or error mapping. Per call: a timeout, the request's abort signal, JSON or bytes.
 * Failures become ProviderError: 408/409/425/429/5xx and network errors are retryable, other 4xx are
 * permanent with the vendor's own message. Retryable failures are retried here a few times with exponential
 * backoff and jitter, honouring `Retry-After`; a wait longer than `maxRetryWaitMs` is not slept through but
 * handed to the kernel (the error carries `retryAfterSeconds`), which defers the request without holding it.
 *
 * Submissions are sent at most once. A POST or PATCH that fails after its bytes may have reached the vendor
 * (timeout after connecting, connection reset, a 5xx other than 503) is not retried: it becomes an
 * "outcome unknown" ProviderError, because the vendor may have created, and may bill, a job. Only failures
 * that prove the vendor did not take it (refused or unresolved connection, connect timeout, 408/425/429/503)
 * are retried or classified as usual. A plugin that sends an idempotency key the vendor honours declares the
 * call `idempotent: true`, and it is then retried like a GET.
 */
import type { Readable } from 'node:stream';
import { ProviderError } from './provider-error.js';

export interface VendorHttpOptions {
  provider: string;
  baseUrl: string;
  headers?: Record<string, string>;
  /** Per-call timeout (default 60 s). */
  timeoutMs?: number;
  /** Attempts per call for retryable failures (default 3). */
  maxAttempts?: number;
  /** First backoff step (default 500 ms), doubled per attempt, ±50% jitter. */
  baseDelayMs?: number;
  /** Longest wait slept through inside one call (default 10 s). */
  maxRetryWaitMs?: number;
  /**
   * Pulls the human message (and code) out of the vendor's error body; `retryable` overrides the status
   * rule where a vendor's code says otherwise (e.g. a 429 that means "out of credits" is permanent).
   */
  describeError?: (body: unknown, status: number) => { message?: string; code?: string; retryable?: boolean };
}

export interface VendorRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to baseUrl (or absolute). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (multipart FormData, bytes), or streamed (a large file or a segment of one). */
  body?: FormData | Buffer | string | StreamedBody;
  /** How to read a 2xx body (default json). */
  responseType?: 'json' | 'bytes' | 'text';
  timeoutMs?: number;
  /**
   * Sending this request twice does no harm (the vendor dedupes it by an idempotency key we send, or it
   * changes nothing). Defaults to true for GET, PUT and DELETE and false for POST and PATCH, which are then
   * sent at most once.
   */
  idempotent?: boolean;
}

/**
 * A body streamed from a source of known length, so a large upload never sits in memory. It goes with a
 * `Content-Length` (signed storage URLs refuse chunked uploads) and is opened afresh for every attempt, since
 * a stream is read only once.
 */
export interface StreamedBody {
  /** Exact byte count `open()` yields; a different count fails the call. */
  length: number;
  open(): Readable;
}

export interface VendorResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

export interface VendorHttp {
  request<T = unknown>(request: VendorRequest): Promise<VendorResponse<T>>;
}

/** What the kernel hears about submissions (POST, PATCH) that the vendor cannot dedupe. */
export interface SubmissionHooks {
  /** Awaited before such a request is sent: the kernel records that a job may exist from now on. */
  beforeSubmission(): Promise<void>;
  /** Told when the vendor answered such a request 2xx: a job exists. */
  accepted(): void;
}

export function createVendorHttp(
  options: VendorHttpOptions,
  signal?: AbortSignal,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void> = defaultSleep,
  hooks?: SubmissionHooks,
): VendorHttp {
  const maxAttempts = options.maxAttempts ?? 3;
  return {
    async request<T>(request: VendorRequest): Promise<VendorResponse<T>> {
      const sentOnce = !isIdempotent(request);
      if (sentOnce) await hooks?.beforeSubmission();
      let earlierUnknown: ProviderError | undefined;
      for (let attempt = 1; ; attempt += 1) {
        try {
          const response = await once<T>(options, request, signal);
          if (sentOnce) hooks?.accepted();
          return response;
        } catch (error) {
          const failure = error as ProviderError;
          // A keyed resend that ends in a clean refusal does not undo an earlier attempt the vendor may hold.
          if (ProviderError.isOutcomeUnknown(failure)) earlierUnknown = failure;
          const final = earlierUnknown && !ProviderError.isOutcomeUnknown(failure) && failure.retryable ? earlierUnknown : failure;
          if (!failure.retryable || attempt >= maxAttempts || signal?.aborted) throw final;
          const wait = retryWait(failure, attempt, options);
          if (wait > (options.maxRetryWaitMs ?? 10_000)) throw final;
          await sleep(wait, signal);
        }
      }
    },
  };
}

function retryWait(failure: ProviderError, attempt: number, options: VendorHttpOptions): number {
  if (failure.details.retryAfterSeconds !== undefined) return failure.details.retryAfterSeconds * 1000;
  const base = (options.baseDelayMs ?? 500) * 2 ** (attempt - 1);
  return Math.round(base * (0.5 + Math.random()));
}

async function once<T>(options: VendorHttpOptions, request: VendorRequest, signal?: AbortSignal): Promise<VendorResponse<T>> {
  const url = new URL(request.path, options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  if (/^https?:\/\//.test(request.path)) url.href = request.path;
  for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
  const timeout = AbortSignal.timeout(request.timeoutMs ?? options.timeoutMs ?? 60_000);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...request.headers };
  let body: FormData | Uint8Array | string | undefined = request.body instanceof Buffer ? new Uint8Array(request.body) : isStreamedBody(request.body) ? undefined : request.body;
  if (isStreamedBody(request.body)) headers['content-length'] = String(request.body.length);
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers['content-type'] = 'application/json';
  }
  const method = request.method ?? 'GET';
  const call = `${method} ${url.pathname}`;
  const sentOnce = !isIdempotent(request);
  // A submission the vendor dedupes by key may be resent, but whether the vendor has it stays unknown.
  const keyedSubmission = !sentOnce && !IDEMPOTENT_METHODS.has(method);
  // Aborted before anything left: the vendor saw nothing, whatever the method.
  if (signal?.aborted) throw new ProviderError(`${options.provider}: cancelled before ${call}`, { provider: options.provider, retryable: true, vendorCode: 'aborted' });
  const streamed = isStreamedBody(request.body) ? request.body.open() : undefined;
  let response: Response;
  try {
    // fetch takes a stream body only with `duplex: 'half'` (https://fetch.spec.whatwg.org/#dom-requestinit-duplex).
    const init = { method, headers, body: (streamed ?? body) as BodyInit | undefined, signal: signal ? AbortSignal.any([signal, timeout]) : timeout, ...(streamed ? { duplex: 'half' } : {}) };
    response = await fetch(url, init as RequestInit);
  } catch (error) {
    const timedOut = timeout.aborted && !signal?.aborted;
    const what = timedOut ? 'timed out' : `network error (${describeNetworkError(error)})`;
    if ((sentOnce || keyedSubmission) && !provesNotSent(error)) {
      throw ProviderError.outcomeUnknown(`${options.provider}: ${what} on ${call} after it may have reached the vendor`, { provider: options.provider, vendorCode: timedOut ? 'timeout' : 'network' }, keyedSubmission);
    }
    throw new ProviderError(`${options.provider}: ${what} on ${call}`, { provider: options.provider, retryable: true, vendorCode: timedOut ? 'timeout' : 'network' });
  } finally {
    // An answer may come before the whole body was read (a refusal); the file handle goes either way.
    streamed?.destroy();
  }
  if (!response.ok) throw await toProviderError(options, response, request, url, sentOnce || keyedSubmission, keyedSubmission);
  try {
    const data = request.responseType === 'bytes' ? Buffer.from(await response.arrayBuffer()) : request.responseType === 'text' ? await response.text() : await readJson(options, response, url);
    return { status: response.status, headers: response.headers, data: data as T };
  } catch (error) {
    if (ProviderError.is(error)) throw error;
    // The vendor answered 2xx and the connection broke while the body streamed in: a submission was taken.
    const message = `${options.provider}: connection lost reading the answer to ${call} (${describeNetworkError(error)})`;
    if (sentOnce || keyedSubmission) throw ProviderError.outcomeUnknown(message, { provider: options.provider, vendorStatus: response.status, vendorCode: 'network' }, keyedSubmission);
    throw new ProviderError(message, { provider: options.provider, retryable: true, vendorStatus: response.status, vendorCode: 'network' });
  }
}

/** Methods HTTP defines as idempotent (RFC 9110 §9.2.2): repeating them changes nothing more. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);

function isStreamedBody(body: VendorRequest['body']): body is StreamedBody {
  return typeof body === 'object' && body !== null && 'open' in body && typeof body.open === 'function';
}

function isIdempotent(request: VendorRequest): boolean {
  return request.idempotent ?? IDEMPOTENT_METHODS.has(request.method ?? 'GET');
}

/**
 * Node's fetch (undici) puts the socket error in `cause`: these codes mean no connection was made, so no
 * byte of the request left (https://undici.nodejs.org/#/docs/api/Errors). Anything else after a connection
 * (`UND_ERR_SOCKET` "other side closed", `ECONNRESET`, our own timeout) may follow a delivered request.
 */
const NOT_CONNECTED_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function provesNotSent(error: unknown): boolean {
  const code = causeCode(error);
  // A failed TLS handshake also happens before the request is written.
  return code !== undefined && (NOT_CONNECTED_CODES.has(code) || code.startsWith('ERR_TLS_') || code.includes('CERT'));
}

/** The socket error's code; with several addresses tried (happy eyeballs) the cause is an AggregateError. */
function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | undefined)?.cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

function describeNetworkError(error: unknown): string {
  return causeCode(error) ?? (error as Error | undefined)?.message ?? String(error);
}

async function readJson(options: VendorHttpOptions, response: Response, url: URL): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A 2xx that is not JSON is a vendor fault the request cannot recover from by waiting.
    throw new ProviderError(`${options.provider}: malformed response from ${url.pathname} (not JSON)`, { provider: options.provider, retryable: false, vendorStatus: response.status });
  }
}

async function toProviderError(options: VendorHttpOptions, response: Response, request: VendorRequest, url: URL, submission: boolean, resendable: boolean): Promise<ProviderError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  const described = options.describeError?.(body, response.status) ?? {};
  const message = `${options.provider}: ${described.message ?? (typeof body === 'string' && body.length > 0 ? body.slice(0, 300) : response.statusText)} (HTTP ${response.status} on ${request.method ?? 'GET'} ${url.pathname})`;
  const retryable = described.retryable ?? ProviderError.isRetryableStatus(response.status);
  if (submission && retryable && mayHaveBeenProcessed(response.status)) {
    return ProviderError.outcomeUnknown(message, { provider: options.provider, vendorStatus: response.status, vendorCode: described.code }, resendable);
  }
  return new ProviderError(message, {
    provider: options.provider,
    retryable,
    vendorStatus: response.status,
    vendorCode: described.code,
    retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/**
 * A 5xx may come after the vendor (or the proxy in front of it) passed the request on: a 500 thrown after the
 * job was created, a 502/504 from a gateway that timed out waiting. 503 is the one a vendor sends to turn
 * work away. Every 4xx (408/425/429 included) says the request was not taken.
 */
function mayHaveBeenProcessed(status: number): boolean {
  return status >= 500 && status !== 503;
}

/** `Retry-After` as seconds (RFC 9110: delay-seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : undefined;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
