/**
 * Renders every error as RFC 9457 `application/problem+json` from the one catalogue: `type`, `title`,
 * `status`, `detail`, plus `code` and, for validation, `errors: [{path, message}]`. Anything that is not
 * an ApiError is a defect: logged with its stack, answered as a bare 500 that leaks nothing — except a
 * dependency that is down (store/dependency-unavailable.ts decides), which is 503 `MG_UNAVAILABLE` with
 * `Retry-After`: the client did nothing wrong and should simply come back.
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { ApiError, errorCatalogue, errorTypeUri, type ErrorCode } from '../../kernel/errors/index.js';
import { isDependencyUnavailable, unavailableRetryAfterSeconds } from '../../kernel/store/dependency-unavailable.js';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  instance?: string;
  errors?: { path: string; message: string }[];
}

export function problemDetails(log: Logger) {
  return async function renderProblems(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new ApiError('MG_NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string')) {
        throw new ApiError('MG_METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`, { headers: { Allow: String(ctx.response.get('Allow') ?? '') } });
      }
    } catch (error) {
      const apiError = error instanceof ApiError ? error : unavailable(error, log, ctx.path);
      if (!apiError) log.error({ err: error, path: ctx.path }, 'unhandled error');
      const code: ErrorCode = apiError?.code ?? 'MG_INTERNAL';
      const entry = errorCatalogue[code];
      const problem: ProblemDocument = {
        type: errorTypeUri(code),
        title: entry.title,
        status: entry.status,
        // Anything that is not an ApiError is ours to debug: its message (paths, tool output) stays in the log.
        detail: apiError?.detail ?? entry.title,
        code,
        instance: ctx.path,
      };
      if (apiError?.extras.errors) problem.errors = apiError.extras.errors;
      for (const [name, value] of Object.entries(apiError?.extras.headers ?? {})) if (value) ctx.set(name, value);
      // RFC 9110 §15.5.2: a 401 must carry a challenge. Ours names the x-api-key scheme (docs: README, decisions.ts).
      if (entry.status === 401 && !ctx.response.get('WWW-Authenticate')) ctx.set('WWW-Authenticate', apiKeyChallenge(ctx));
      if (code === 'MG_UNAVAILABLE' && !ctx.response.get('Retry-After')) ctx.set('Retry-After', String(unavailableRetryAfterSeconds));
      ctx.status = entry.status;
      ctx.type = 'application/problem+json';
      ctx.body = problem;
    }
  };
}

/** A database that is down, as the client should see it: no driver text, a time to come back. */
function unavailable(error: unknown, log: Logger, path: string): ApiError | undefined {
  if (!isDependencyUnavailable(error)) return undefined;
  log.warn({ err: error, path }, 'a dependency is unavailable; answering 503');
  return new ApiError('MG_UNAVAILABLE', 'the service cannot reach its database right now; retry after the Retry-After delay');
}

/** `ApiKey realm="mediagate"`, plus `error="invalid_key"` when a key was sent (RFC 6750 style: none when absent). */
function apiKeyChallenge(ctx: Context): string {
  return ctx.get('x-api-key') ? 'ApiKey realm="mediagate", error="invalid_key"' : 'ApiKey realm="mediagate"';
}
