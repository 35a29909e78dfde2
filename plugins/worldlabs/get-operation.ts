/**
 * GET /marble/v1/operations/{operation_id}: the long-running generation job
 * (https://docs.worldlabs.ai/api/reference/operations/get). `done: false` is still running; `done: true`
 * with `error` failed; otherwise `response` holds a snapshot of the world, and `metadata.world_id` names it.
 */
import { MalformedVendorResponse, pick } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './worldlabs-vendor.js';

export function operationPath(operationId: string): string {
  return `marble/v1/operations/${encodeURIComponent(operationId)}`;
}

export type OperationView =
  | { state: 'pending'; progress?: number }
  | { state: 'failed'; message: string }
  | { state: 'done'; world: unknown; worldId?: string };

export function readOperation(data: unknown): OperationView {
  const done = pick(data, 'done');
  if (typeof done !== 'boolean') throw new MalformedVendorResponse(PROVIDER_ID, 'done', 'boolean');
  if (!done) return { state: 'pending', progress: percentage(pick(data, 'metadata.progress')) };
  const error = pick(data, 'error');
  if (error !== null && typeof error === 'object') {
    const message = pick(error, 'message');
    const code = pick(error, 'code');
    return { state: 'failed', message: typeof message === 'string' && message.trim() !== '' ? message : `World Labs reported the generation as failed${code === undefined || code === null ? '' : ` (code ${String(code)})`}` };
  }
  const worldId = pick(data, 'response.world_id') ?? pick(data, 'metadata.world_id');
  return { state: 'done', world: pick(data, 'response'), worldId: typeof worldId === 'string' ? worldId : undefined };
}

/**
 * The docs call `metadata` "service-specific metadata, such as progress percentage" without naming the
 * field; a numeric `metadata.progress` is used, anything else (one client observed `{status, description}`)
 * reports no figure.
 */
function percentage(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : undefined;
}
