/**
 * Whether this process's dependencies answer: what an orchestrator's readiness probe should see. The answer
 * names each component's state with a short stable reason; what the driver said (addresses, host names,
 * SQL) goes to the log only, since `/healthz` is served without authentication.
 */
import type { Logger } from 'pino';
import type { Database } from '../store/index.js';
import type { JobQueue } from '../queue/index.js';
import type { PluginRegistry } from '../plugins/index.js';
import type { GatewayMetrics } from './metrics.js';

/** Why a component is down, in words that are safe to show anyone. */
export type DownReason = 'unreachable' | 'timed out' | 'failing';

export type ComponentHealth = { ok: true } | { ok: false; reason: DownReason };

export interface HealthReport {
  ok: boolean;
  role: string;
  checks: Record<string, ComponentHealth>;
  providers: ReturnType<PluginRegistry['breakerStates']>;
}

const databaseCheckTimeoutMs = 2000;

class CheckTimedOut extends Error {}

export async function checkHealth(deps: { role: string; database: Database; queue: JobQueue; plugins: PluginRegistry; log: Logger; metrics?: GatewayMetrics }): Promise<HealthReport> {
  const checks: HealthReport['checks'] = { database: await checkDatabase(deps.database, deps.log), queue: await checkQueue(deps.queue, deps.log) };
  // A probe's answer is as fresh as the store gauges' own check, so it updates `mediagate_database_up` too.
  deps.metrics?.databaseUp.set(checks.database.ok ? 1 : 0);
  return { ok: Object.values(checks).every((check) => check.ok), role: deps.role, checks, providers: deps.plugins.breakerStates() };
}

async function checkDatabase(database: Database, log: Logger): Promise<ComponentHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimedOut()), databaseCheckTimeoutMs);
  });
  try {
    await Promise.race([database.sql.first('SELECT 1 AS ok'), timeout]);
    return { ok: true };
  } catch (error) {
    const reason: DownReason = error instanceof CheckTimedOut ? 'timed out' : 'unreachable';
    log.warn({ err: error, component: 'database', reason }, 'health check: the database is down');
    return { ok: false, reason };
  } finally {
    clearTimeout(timer);
  }
}

async function checkQueue(queue: JobQueue, log: Logger): Promise<ComponentHealth> {
  if (!queue.health) return { ok: true };
  const health = await queue.health();
  if (health.ok) return { ok: true };
  log.warn({ component: 'queue', detail: health.detail }, 'health check: the queue is down');
  return { ok: false, reason: 'unreachable' };
}
