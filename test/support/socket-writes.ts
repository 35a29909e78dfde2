/** Counts the writes a socket hands to the kernel: one per `_write` (a chunk), one per `_writev` (a gathered batch). */
import type { Socket } from 'node:net';

export function countSocketWrites(socket: Socket): { calls: () => number } {
  let calls = 0;
  const counted = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
  for (const name of ['_write', '_writev'] as const) {
    const original = counted[name];
    counted[name] = function (...args: unknown[]) {
      calls += 1;
      return original.apply(this, args);
    };
  }
  return { calls: () => calls };
}
