/**
 * The HTTP client every vendor plugin uses (`ctx.http(...)`), so no plugin writes its own timeouts,
 * retries or error mapping. Per call: a timeout, the request's abort signal, JSON or bytes.
 * Failures become ProviderError: 408/409/425/429/5xx and network errors are retryable, other 4xx are
 * permanent with the vendor's own message. Retryable failures are retried here a few times with exponential
 * backoff and jitter, honouring `Retry-After`; a wait longer than `maxRetryWaitMs` is not slept through but
 * handed to the kernel (the error carries `retryAfterSeconds`), which defers the request without holding it.
 */
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
  /** Sent as is (multipart FormData, bytes). */
  body?: FormData | Buffer | string;
  /** How to read a 2xx body (default json). */
  responseType?: 'json' | 'bytes' | 'text';
  timeoutMs?: number;
}

export interface VendorResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

export interface VendorHttp {
  request<T = unknown>(request: VendorRequest): Promise<VendorResponse<T>>;
}

export function createVendorHttp(options: VendorHttpOptions, signal?: AbortSignal, sleep: (ms: number, signal?: AbortSignal) => Promise<void> = defaultSleep): VendorHttp {
  const maxAttempts = options.maxAttempts ?? 3;
  return {
    async request<T>(request: VendorRequest): Promise<VendorResponse<T>> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await once<T>(options, request, signal);
        } catch (error) {
          const failure = error as ProviderError;
          if (!failure.retryable || attempt >= maxAttempts || signal?.aborted) throw failure;
          const wait = retryWait(failure, attempt, options);
          if (wait > (options.maxRetryWaitMs ?? 10_000)) throw failure;
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
  let body: FormData | Uint8Array | string | undefined = request.body instanceof Buffer ? new Uint8Array(request.body) : request.body;
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers['content-type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(url, { method: request.method ?? 'GET', headers, body: body as BodyInit | undefined, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    const timedOut = timeout.aborted && !signal?.aborted;
    throw new ProviderError(`${options.provider}: ${timedOut ? 'timed out' : `network error (${(error as Error).message})`} on ${request.method ?? 'GET'} ${url.pathname}`, {
      provider: options.provider,
      retryable: true,
      vendorCode: timedOut ? 'timeout' : 'network',
    });
  }
  if (!response.ok) throw await toProviderError(options, response, request, url);
  const data = request.responseType === 'bytes' ? Buffer.from(await response.arrayBuffer()) : request.responseType === 'text' ? await response.text() : await readJson(options, response, url);
  return { status: response.status, headers: response.headers, data: data as T };
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

async function toProviderError(options: VendorHttpOptions, response: Response, request: VendorRequest, url: URL): Promise<ProviderError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  const described = options.describeError?.(body, response.status) ?? {};
  const message = described.message ?? (typeof body === 'string' && body.length > 0 ? body.slice(0, 300) : response.statusText);
  return new ProviderError(`${options.provider}: ${message} (HTTP ${response.status} on ${request.method ?? 'GET'} ${url.pathname})`, {
    provider: options.provider,
    retryable: described.retryable ?? ProviderError.isRetryableStatus(response.status),
    vendorStatus: response.status,
    vendorCode: described.code,
    retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
  });
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
