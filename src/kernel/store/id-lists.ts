/**
 * `IN (...)` lists of ids for batched reads. The list is padded to a power of two with its first id (IN ignores the
 * repeats), so the executors' statement caches hold a handful of texts rather than one per list length.
 */
export function paddedIdList(ids: readonly string[]): { placeholders: string; params: string[] } {
  const params = [...ids];
  while (params.length & (params.length - 1)) params.push(ids[0]);
  return { placeholders: params.map(() => '?').join(', '), params };
}
