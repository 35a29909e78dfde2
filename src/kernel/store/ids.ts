import { randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * `prefix_` + 8 chars of base-36 time + 16 random chars: unguessable, and sortable by creation time,
 * which list pagination (cursor = id) relies on.
 */
export function newId(prefix: string, nowMs = Date.now()): string {
  const time = nowMs.toString(36).padStart(9, '0');
  const bytes = randomBytes(16);
  let random = '';
  for (const byte of bytes) random += alphabet[byte % 36];
  return `${prefix}_${time}${random}`;
}
