/**
 * Writes many ids' last use in one statement (accounts/last-use-recorder.ts gathers them): a row moves only forward,
 * and only by the resolution or more, so two processes recording the same key's uses neither undo each other nor
 * write twice within it.
 */
import { paddedToPowerOfTwo } from './id-lists.js';
import type { SqlExecutor } from './sql-executor.js';

/** Ids per statement, a power of two: far under every dialect's limit on parameters (5 per id). */
const idsPerStatement = 512;

export type LastUseTable = 'api_keys' | 'oauth_links';

export async function writeLastUses(db: SqlExecutor, table: LastUseTable, uses: ReadonlyMap<string, number>, resolutionMs: number): Promise<void> {
  const entries = [...uses];
  for (let start = 0; start < entries.length; start += idsPerStatement) {
    const chunk = paddedToPowerOfTwo(entries.slice(start, start + idsPerStatement));
    const whenThen = chunk.map(() => 'WHEN ? THEN ?').join(' ');
    await db.run(
      `UPDATE ${table} SET last_used_at_ms = CASE id ${whenThen} END
        WHERE id IN (${chunk.map(() => '?').join(', ')}) AND (last_used_at_ms IS NULL OR last_used_at_ms <= CASE id ${whenThen} END)`,
      [...chunk.flat(), ...chunk.map(([id]) => id), ...chunk.flatMap(([id, atMs]) => [id, atMs - resolutionMs])],
    );
  }
}
