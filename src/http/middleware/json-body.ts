/**
 * Reads a JSON request body with a size limit: 415 unless `application/json`, 413 past the limit,
 * 400 when it does not parse. Errors are thrown before anything is written.
 */
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../../kernel/errors/index.js';

export function jsonBody(limitBytes: number) {
  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    if (!ctx.is('application/json')) {
      throw new ApiError('MG_UNSUPPORTED_MEDIA_TYPE', `send the body as application/json (got ${ctx.get('content-type') || 'no content type'})`);
    }
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.get('content-length') || undefined, encoding: 'utf8' });
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') throw new ApiError('MG_PAYLOAD_TOO_LARGE', `the body must be at most ${limitBytes} bytes`);
      if (type === 'request.aborted') throw new ApiError('MG_MALFORMED_JSON', 'the request body was cut off');
      throw new ApiError('MG_MALFORMED_JSON', `the body could not be read: ${(error as Error).message}`);
    }
    try {
      ctx.state.body = JSON.parse(text) as unknown;
    } catch (error) {
      throw new ApiError('MG_MALFORMED_JSON', `the body is not valid JSON: ${(error as Error).message}`);
    }
    await next();
  };
}
