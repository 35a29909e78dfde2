/**
 * A request's state tag: an opaque token that changes whenever what a client sees of the request changes. It is
 * the poll answer's `ETag` (weak, `W/"<tag>"`) and the `id:` of each event of a request's event stream, so a client
 * that holds a state can ask for anything newer (`If-None-Match`, `Last-Event-ID`) without either side storing a
 * version: the tag is computed from the row the poll reads anyway, so a conditional poll costs no extra query.
 *
 * It hashes the fields a transition can change. The id, operation and creation time never change; the input only
 * goes away together with `dataRemovedAtMs`; the credit entries of the poll answer are written in the same
 * transaction as the status or `billableCredits` they go with. Weak, because the answer's bytes may still differ
 * for one tag: `poll_after_ms` follows the breakers, URLs follow `server.public_url`.
 */
import * as crypto from 'node:crypto';
import type { RequestViewRecord } from '../store/index.js';

// The one-shot hash (Node >= 20.12) gives the same digest without a Hash object per poll; older 20.x make one.
const sha1Base64url: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha1', text, 'base64url') : (text) => crypto.createHash('sha1').update(text).digest('base64url');

export function requestStateTag(record: RequestViewRecord): string {
  const visible = [record.status, record.billableCredits, record.startedAtMs, record.completedAtMs, record.dataRemovedAtMs, record.errorMessage, record.output];
  // 128 bits of SHA-1: not a security boundary (a client only ever compares tags of its own request).
  return sha1Base64url(JSON.stringify(visible)).slice(0, 22);
}
