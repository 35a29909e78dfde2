import { randomFillSync } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from the CSPRNG a page at a time (as Node's randomUUID does): one getrandom call
// per 256 ids instead of one per id, a syscall that showed up in every create's profile.
const entropy = Buffer.alloc(4096);
let entropyOffset = entropy.length;

function takeRandomBytes(count: number): Buffer {
  if (entropyOffset + count > entropy.length) {
    randomFillSync(entropy);
    entropyOffset = 0;
  }
  const bytes = entropy.subarray(entropyOffset, entropyOffset + count);
  entropyOffset += count;
  return bytes;
}

/**
 * `prefix_` + 8 chars of base-36 time + 16 random chars: unguessable, and sortable by creation time,
 * which list pagination (cursor = id) relies on.
 */
export function newId(prefix: string, nowMs = Date.now()): string {
  const time = nowMs.toString(36).padStart(9, '0');
  const bytes = takeRandomBytes(16);
  let random = '';
  for (const byte of bytes) random += alphabet[byte % 36];
  return `${prefix}_${time}${random}`;
}
