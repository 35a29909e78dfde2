/**
 * Reads a JSON request body within bounds: 415 unless `application/json`, 413 past the size limit, 408 when
 * the body does not arrive within the body timeout, 400 when it is not UTF-8 or does not parse, 422 (naming
 * the field) when it nests too deep or holds an oversized string, a non-finite number, a `__proto__` or a
 * repeated key. Errors are thrown before anything is written.
 */
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../../kernel/errors/index.js';
import { findJsonLimitViolation } from './json-limits.js';

export interface JsonBodyLimits {
  body_limit_bytes: number;
  json_max_depth: number;
  json_max_string_length: number;
  body_timeout_ms: number;
}

/** `bounds` is `settings.server`. */
export function jsonBody(bounds: JsonBodyLimits) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    if (!ctx.is('application/json')) {
      throw new ApiError('MG_UNSUPPORTED_MEDIA_TYPE', `send the body as application/json (got ${ctx.get('content-type') || 'no content type'})`);
    }
    const bytes = await readWithin(ctx, bounds);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new ApiError('MG_MALFORMED_JSON', 'the body is not valid UTF-8');
    }
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch (error) {
      throw new ApiError('MG_MALFORMED_JSON', `the body is not valid JSON: ${(error as Error).message}`);
    }
    const violation = findJsonLimitViolation(text, { maxDepth: bounds.json_max_depth, maxStringLength: bounds.json_max_string_length });
    if (violation) throw new ApiError('MG_VALIDATION_FAILED', `${violation.path || 'the body'} ${violation.message}`, { errors: [violation] });
    ctx.state.body = body;
    await next();
  };
}

/** The raw body, or a 408 once `body_timeout_ms` has passed: a client dribbling bytes must not hold the connection. */
async function readWithin(ctx: Context, bounds: JsonBodyLimits): Promise<Buffer> {
  const reading = getRawBody(ctx.req, { limit: bounds.body_limit_bytes, length: ctx.get('content-length') || undefined });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError('MG_REQUEST_TIMEOUT', `the body did not arrive within ${bounds.body_timeout_ms} ms`, { headers: { Connection: 'close' } })), bounds.body_timeout_ms);
  });
  // After a timeout the read is abandoned; its later rejection (the socket closes) must not go unhandled.
  reading.catch(() => undefined);
  try {
    return await Promise.race([reading, timedOut]);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new ApiError('MG_PAYLOAD_TOO_LARGE', `the body must be at most ${bounds.body_limit_bytes} bytes`);
    if (type === 'request.aborted') throw new ApiError('MG_MALFORMED_JSON', 'the request body was cut off');
    // raw-body's other messages (length mismatch, stream errors) say nothing a client needs.
    throw new ApiError('MG_MALFORMED_JSON', 'the body could not be read');
  } finally {
    clearTimeout(timer);
  }
}
