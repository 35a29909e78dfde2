/**
 * Deterministic randomness: the same prompt always renders the same media, which keeps outputs
 * reproducible in tests and lets a client resubmit and get an identical file.
 */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  range(min: number, max: number): number;
  int(min: number, maxInclusive: number): number;
  pick<T>(items: readonly T[]): T;
}

/** FNV-1a over the parts; `undefined` parts still count so field order matters. */
export function seedFrom(...parts: ReadonlyArray<string | number | boolean | undefined>): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    const text = `${part ?? ''}\u0000`;
    for (let index = 0; index < text.length; index += 1) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return hash >>> 0;
}

/** mulberry32: tiny, fast and good enough for visual and audio variety. */
export function createRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (min, max) => min + (max - min) * next(),
    int: (min, maxInclusive) => min + Math.floor(next() * (maxInclusive - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}
