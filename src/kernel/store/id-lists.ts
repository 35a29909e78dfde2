/**
 * `IN (...)` lists of ids for batched statements. A list is padded to a power of two with its first item (IN ignores
 * the repeats, and so does a repeated `WHEN` of a `CASE id`), so the executors' statement caches hold a handful of
 * texts rather than one per list length.
 */
export function paddedIdList(ids: readonly string[]): { placeholders: string; params: string[] } {
  const params = paddedToPowerOfTwo(ids);
  return { placeholders: params.map(() => '?').join(', '), params };
}

export function paddedToPowerOfTwo<T>(items: readonly T[]): T[] {
  const padded = [...items];
  while (padded.length & (padded.length - 1)) padded.push(items[0]!);
  return padded;
}
