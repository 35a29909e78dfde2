/** The client's errors: an answer that was not 2xx, and a wait that ran out of time. */
import type { MediagateRequest, OperationName, Problem, ProblemCode } from './operation-types.js';

/**
 * The gateway answered with an error status. `problem` is its RFC 9457 body (`code` is stable: docs/errors.md), or
 * undefined when something in front of the gateway answered with a body of its own (a proxy's 502 page).
 */
export class MediagateApiError extends Error {
  override readonly name = 'MediagateApiError';
  readonly status: number;
  readonly problem: Problem | undefined;
  /** From `Retry-After` (429, 503, 409 while an idempotent create is in flight): when to try again. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, problem: Problem | undefined, retryAfterMs: number | undefined) {
    super(problem ? `${problem.title}: ${problem.detail} (${problem.code}, HTTP ${status})` : `HTTP ${status} without a problem body`);
    this.status = status;
    this.problem = problem;
    this.retryAfterMs = retryAfterMs;
  }

  get code(): ProblemCode | undefined {
    return this.problem?.code;
  }

  static fromResponse(response: Response, body: unknown): MediagateApiError {
    return new MediagateApiError(response.status, isProblem(body) ? body : undefined, retryAfterMs(response.headers.get('retry-after')));
  }
}

/** `waitForResult` reached its `timeoutMs` before the request finished; the request goes on at the gateway. */
export class MediagateWaitTimeoutError extends Error {
  override readonly name = 'MediagateWaitTimeoutError';

  constructor(
    readonly requestId: string,
    readonly timeoutMs: number,
    /** The request as last read (undefined when no read succeeded in time). */
    readonly lastSeen: MediagateRequest<OperationName> | undefined,
  ) {
    super(`request ${requestId} did not finish within ${timeoutMs} ms (last seen ${lastSeen?.status ?? 'never'})`);
  }
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const { code, status, title } = body as Record<string, unknown>;
  return typeof code === 'string' && code.startsWith('MG_') && typeof status === 'number' && typeof title === 'string';
}

/** RFC 9110 `Retry-After`: delay-seconds or an HTTP-date. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
