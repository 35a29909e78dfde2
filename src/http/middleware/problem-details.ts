/**
 * Renders every error as RFC 9457 `application/problem+json` from the one catalogue: `type`, `title`,
 * `status`, `detail`, plus `code` and, for validation, `errors: [{path, message}]`. Anything that is not
 * an ApiError is a defect: logged with its stack, answered as a bare 500 that leaks nothing.
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { ApiError, errorCatalogue, errorTypeUri, type ErrorCode } from '../../kernel/errors/index.js';

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
      const apiError = error instanceof ApiError ? error : undefined;
      if (!apiError) log.error({ err: error, path: ctx.path }, 'unhandled error');
      const code: ErrorCode = apiError?.code ?? 'MG_INTERNAL';
      const entry = errorCatalogue[code];
      const problem: ProblemDocument = {
        type: errorTypeUri(code),
        title: entry.title,
        status: entry.status,
        detail: apiError?.detail ?? entry.title,
        code,
        instance: ctx.path,
      };
      if (apiError?.extras.errors) problem.errors = apiError.extras.errors;
      for (const [name, value] of Object.entries(apiError?.extras.headers ?? {})) if (value) ctx.set(name, value);
      ctx.status = entry.status;
      ctx.type = 'application/problem+json';
      ctx.body = problem;
    }
  };
}
