/** Whether this process's dependencies answer: what an orchestrator's readiness probe should see. */
import type { Database } from '../store/index.js';
import type { JobQueue } from '../queue/index.js';
import type { PluginRegistry } from '../plugins/index.js';

export interface HealthReport {
  ok: boolean;
  role: string;
  checks: Record<string, { ok: boolean; detail?: string }>;
  providers: ReturnType<PluginRegistry['breakerStates']>;
}

export async function checkHealth(deps: { role: string; database: Database; queue: JobQueue; plugins: PluginRegistry }): Promise<HealthReport> {
  const checks: HealthReport['checks'] = {};
  try {
    await Promise.race([deps.database.sql.first('SELECT 1 AS ok'), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 2 s')), 2000).unref())]);
    checks.database = { ok: true };
  } catch (error) {
    checks.database = { ok: false, detail: (error as Error).message };
  }
  checks.queue = deps.queue.health ? await deps.queue.health() : { ok: true };
  return { ok: Object.values(checks).every((check) => check.ok), role: deps.role, checks, providers: deps.plugins.breakerStates() };
}
