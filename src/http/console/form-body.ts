/**
 * Console forms are `application/x-www-form-urlencoded` (plain HTML forms, no JavaScript). The body is read
 * once, bounded, into `ctx.request.body` as name -> value (a repeated name -> every value).
 */
import type { Context } from 'koa';
import { ApiError } from '../../kernel/errors/index.js';

export type FormFields = Record<string, string | string[] | undefined>;

/** Far more than any console form; a bigger body is refused before it is buffered whole. */
const formBodyLimitBytes = 64 * 1024;

export async function readFormBody(ctx: Context): Promise<FormFields> {
  const request = ctx.request as { body?: FormFields };
  if (request.body) return request.body;
  const fields: FormFields = {};
  if (ctx.is('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(await readBounded(ctx))) {
      const previous = fields[name];
      fields[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
  }
  request.body = fields;
  return fields;
}

async function readBounded(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > formBodyLimitBytes) throw new ApiError('MG_PAYLOAD_TOO_LARGE', `a console form may carry at most ${formBodyLimitBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One text field, or undefined when it is missing or repeated. */
export function formField(fields: FormFields, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}
