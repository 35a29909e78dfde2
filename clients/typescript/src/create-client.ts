/**
 * `createMediagateClient`: the gateway's request lifecycle (create, poll, wait, estimate, key status) with inputs and
 * outputs typed by operation, over an openapi-fetch client of the whole document (`api`) for everything else.
 */
import createClient, { type Client } from 'openapi-fetch';
import { MediagateApiError } from './mediagate-errors.js';
import type {
  AcceptedRequest,
  Estimate,
  FinishedRequest,
  GatewayStatus,
  MediagateRequest,
  OperationInput,
  OperationName,
  RequestReference,
} from './operation-types.js';
import type { components, paths } from './schema.js';
import { pollUntilFinished, type WaitOptions, type WaitRead } from './wait-for-result.js';

export interface MediagateClientOptions {
  /** The gateway's public URL, e.g. `http://127.0.0.1:8080` (the document's `servers[0].url`). */
  baseUrl: string;
  /** An API key (`mg_...`), sent as `x-api-key`. */
  apiKey: string;
  /** Used instead of `globalThis.fetch` (a proxy agent, a test double). */
  fetch?: (request: Request) => Promise<Response>;
}

export interface CreateOptions {
  /**
   * `x-idempotency-key`: send the same key again (after a timeout, a crash) and the gateway answers with the first
   * request instead of creating and charging a second one (`replayed: true`). Kept 7 days per API key.
   */
  idempotencyKey?: string;
  /** Receives a signed Standard Webhooks delivery when the request succeeds or fails. */
  webhookUrl?: string;
  signal?: AbortSignal;
}

export interface MediagateClient {
  /** Submits `input` for `operation`; the answer names the request to wait for. Throws MediagateApiError. */
  createRequest<Op extends OperationName>(operation: Op, input: OperationInput<Op>, options?: CreateOptions): Promise<AcceptedRequest<Op>>;
  /** Reads a request once. Given the create answer, the result is typed by its operation. */
  getRequest<Op extends OperationName = OperationName>(request: string | RequestReference<Op>, options?: { signal?: AbortSignal }): Promise<MediagateRequest<Op>>;
  /**
   * Waits until the request succeeded or failed: long polls (`Prefer: wait`) by default, or reads `poll_after_ms`
   * apart with `longPoll: false`. Given the create answer, a succeeded result's `output` is typed by its operation. A
   * failed request resolves too (`status: 'failed'`, refunded).
   */
  waitForResult<Op extends OperationName = OperationName>(request: string | RequestReference<Op>, options?: WaitOptions): Promise<FinishedRequest<Op>>;
  /** What a create would charge, validated exactly as a create, without spending anything. */
  estimate<Op extends OperationName>(operation: Op, input: OperationInput<Op>, options?: { signal?: AbortSignal }): Promise<Estimate>;
  /** Checks the key and returns the account's credit balance. */
  status(options?: { signal?: AbortSignal }): Promise<GatewayStatus>;
  /** The whole document as an openapi-fetch client with the key set: list, cancel, webhooks... */
  api: Client<paths>;
}

export function createMediagateClient(options: MediagateClientOptions): MediagateClient {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { 'x-api-key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  const createBody = <Op extends OperationName>(operation: Op, input: OperationInput<Op>, webhookUrl?: string) =>
    // TypeScript cannot tell that `{ operation: Op, input: OperationInput<Op> }` is the CreateRequest member for Op.
    ({ operation, input, ...(webhookUrl === undefined ? {} : { webhook_url: webhookUrl }) }) as components['schemas']['CreateRequest'];

  async function getRequest<Op extends OperationName = OperationName>(request: string | RequestReference<Op>, readOptions: { signal?: AbortSignal } = {}): Promise<MediagateRequest<Op>> {
    return (await readRequest(request, readOptions.signal, undefined)).request;
  }

  /** One read of the request, held up to `waitSeconds` at the gateway (`Prefer: wait`) when given. */
  async function readRequest<Op extends OperationName>(request: string | RequestReference<Op>, signal: AbortSignal | undefined, waitSeconds: number | undefined): Promise<WaitRead<Op>> {
    const id = typeof request === 'string' ? request : request.id;
    const result = await api.GET('/api/v1/requests/{requestId}', {
      params: { path: { requestId: id }, header: waitSeconds === undefined ? {} : { Prefer: `wait=${waitSeconds}` } },
      signal,
    });
    const answer: MediagateRequest = ok(result);
    if (typeof request !== 'string' && answer.operation !== request.operation) {
      throw new Error(`request ${id} is a ${answer.operation} request, not ${request.operation}`);
    }
    return { request: answer as MediagateRequest<Op>, held: result.response.headers.has('preference-applied') };
  }

  async function createRequest<Op extends OperationName>(operation: Op, input: OperationInput<Op>, createOptions: CreateOptions = {}): Promise<AcceptedRequest<Op>> {
    const { idempotencyKey, webhookUrl, signal } = createOptions;
    const result = await api.POST('/api/v1/requests', {
      body: createBody(operation, input, webhookUrl),
      params: { header: idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey } },
      signal,
    });
    const data = ok(result);
    // The type is the union of the 200 and 202 bodies; only `Prefer: wait`, which this client never sends, gets a 200.
    if (result.response.status !== 202) throw new Error(`expected 202 Accepted, got HTTP ${result.response.status}`);
    const accepted = data as components['schemas']['AcceptedResponse'];
    return { ...accepted, operation, replayed: result.response.headers.get('idempotent-replayed') === 'true' };
  }

  async function waitForResult<Op extends OperationName = OperationName>(request: string | RequestReference<Op>, waitOptions: WaitOptions = {}): Promise<FinishedRequest<Op>> {
    const id = typeof request === 'string' ? request : request.id;
    // The create answer says when the first look is worth it; a bare id is looked at at once.
    const firstDelayMs = typeof request === 'string' ? 0 : (request.poll_after_ms ?? 0);
    return pollUntilFinished(id, (signal, waitSeconds) => readRequest(request, signal, waitSeconds), firstDelayMs, waitOptions);
  }

  return {
    api,
    createRequest,
    getRequest,
    waitForResult,
    async estimate(operation, input, estimateOptions = {}) {
      return ok(await api.POST('/api/v1/estimates', { body: createBody(operation, input), signal: estimateOptions.signal }));
    },
    async status(statusOptions = {}) {
      return ok(await api.GET('/api/v1/status', { signal: statusOptions.signal }));
    },
  };
}

function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw MediagateApiError.fromResponse(result.response, result.error);
  return result.data as T;
}
