/**
 * `GET v2/{endpoint}/{id}`: an async job's `status`, `pending` -> `processing` -> `completed` or `failed`; a
 * completed video job holds `result.video_url`, a failed one `error` "describing why"
 * (https://docs.ltx.video/api-documentation/api-reference/async-video-generation/get-job-status,
 * https://docs.ltx.video/async-jobs). The job and its URL live 24 hours after it ends. LTX reports no progress
 * figure. No I/O.
 */
import { MalformedVendorResponse, pick, requireField, type VideoTaskView } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './lightricks-vendor.js';
import type { LtxEndpoint } from './submit-video.js';

export function jobPath(endpoint: LtxEndpoint, id: string): string {
  return `v2/${endpoint}/${encodeURIComponent(id)}`;
}

export function readJob(data: unknown): VideoTaskView {
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  switch (status) {
    case 'pending':
    case 'processing':
      return { state: 'pending' };
    case 'completed':
      return { state: 'succeeded', videoUrl: requireField<string>(data, 'result.video_url', PROVIDER_ID) };
    case 'failed':
      return { state: 'failed', message: `lightricks: ${failureReason(data)}` };
    default:
      throw new MalformedVendorResponse(PROVIDER_ID, 'status', `known status (got "${status}")`);
  }
}

/**
 * `error` is documented only as describing the failure: the object LTX's error bodies use (`{type, message}`,
 * as LTX's own desktop client reads it) or a plain sentence are both taken.
 */
function failureReason(data: unknown): string {
  const error = pick(data, 'error');
  if (typeof error === 'string' && error.trim() !== '') return error.trim();
  const message = pick(error, 'message');
  const type = pick(error, 'type');
  if (typeof message === 'string' && message.trim() !== '') return typeof type === 'string' && type !== '' ? `${message.trim()} (${type})` : message.trim();
  return 'the generation failed without a reason';
}
