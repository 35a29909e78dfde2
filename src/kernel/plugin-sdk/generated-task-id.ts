/**
 * A task id for a synchronous vendor whose answer carries no id of its own: outputs always name a task, and the
 * provider prefix tells at a glance that the id is ours, not one the vendor's support could look up.
 */
import { randomBytes } from 'node:crypto';

/** `<provider>_<random hex>`, `bytes` random bytes long (24 hex digits by default). */
export function generatedTaskId(provider: string, bytes = 12): string {
  return `${provider}_${randomBytes(bytes).toString('hex')}`;
}
