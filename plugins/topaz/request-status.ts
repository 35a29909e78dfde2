/**
 * GET video/{id}/status: `status`, `progress` (percent), `estimates{cost[low, high], time[low, high]}` and, once
 * complete, `download{url, expiresIn, expiresAt}` — a signed URL valid for 24 hours by default
 * (https://developer.topazlabs.com/reference/video/get-request-status/get-video-request-status). The statuses are
 * the `ts` keys of the request history (https://developer.topazlabs.com/api-reference/video-api/get-request-history).
 * Pure: no I/O, so every vendor shape is testable without a network.
 */
import { MalformedVendorResponse, pick, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './topaz-vendor.js';

export function statusPath(requestId: string): string {
  return `video/${encodeURIComponent(requestId)}/status`;
}

/** DELETE video/{id} cancels (https://developer.topazlabs.com/api-reference/video-api/cancel-request). */
export function requestPath(requestId: string): string {
  return `video/${encodeURIComponent(requestId)}`;
}

export type TopazStatusView =
  | { state: 'pending'; progress?: number }
  | { state: 'failed'; message: string }
  | { state: 'complete'; downloadUrl: string };

/**
 * Still on its way. `canceling` ends in `canceled`, which reports the cancellation; until then the request is
 * waited for like any other.
 */
const PENDING = new Set(['requested', 'accepted', 'initializing', 'preprocessing', 'processing', 'postprocessing', 'canceling']);

export function readTopazStatus(data: unknown): TopazStatusView {
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  if (PENDING.has(status)) return { state: 'pending', progress: percentage(pick(data, 'progress')) };
  switch (status) {
    case 'complete':
      return { state: 'complete', downloadUrl: requireField<string>(data, 'download.url', PROVIDER_ID) };
    case 'failed':
      return { state: 'failed', message: `topaz: ${reason(data) ?? 'the enhancement failed without a reason'}` };
    case 'canceled':
      return { state: 'failed', message: `topaz: the request was canceled${reasonSuffix(data)}` };
    default:
      throw new MalformedVendorResponse(PROVIDER_ID, 'status', `known status (got "${status}")`);
  }
}

/** A failed request carries `message` (and `errorCode`); the history lists it as `error.message`. */
function reason(data: unknown): string | undefined {
  const message = [pick(data, 'message'), pick(data, 'error.message')].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const code = pick(data, 'errorCode');
  if (!message) return typeof code === 'string' ? code : undefined;
  return typeof code === 'string' ? `${message.trim()} (${code})` : message.trim();
}

function reasonSuffix(data: unknown): string {
  const text = reason(data);
  return text ? `: ${text}` : '';
}

function percentage(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : undefined;
}
