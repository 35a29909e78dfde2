/**
 * `GET v1/query/video_generation?task_id=`: a task's `status` (Preparing, Queueing, Processing, Success, Fail)
 * and, once it succeeded, `file_id`, `video_width` and `video_height`
 * (https://platform.minimax.io/docs/api-reference/video-generation-query, QueryVideoGenerationTaskResp; the status
 * list as MiniMax-AI/skills' video-api.md gives it). MiniMax reports no progress figure. No I/O.
 */
import { MalformedVendorResponse, pick, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, unwrapBaseResp } from './minimax-vendor.js';

export const QUERY_VIDEO_GENERATION_PATH = 'v1/query/video_generation';

export type MinimaxTaskView =
  | { state: 'pending' }
  | { state: 'failed'; message: string }
  | { state: 'succeeded'; fileId: string; width?: number; height?: number };

const PENDING = new Set(['Preparing', 'Queueing', 'Processing']);
/** `Fail` is the documented spelling; MiniMax's own CLI tests for `Failed`, so both end the task. */
const FAILED = new Set(['Fail', 'Failed']);

/**
 * A failed task is read before the envelope: its `base_resp` may carry the reason as a non-zero code, which
 * on any other answer means the query itself was refused.
 */
export function readVideoTask(data: unknown): MinimaxTaskView {
  if (FAILED.has(String(pick(data, 'status')))) return { state: 'failed', message: `minimax: ${failureReason(data)}` };
  unwrapBaseResp(data, `GET /${QUERY_VIDEO_GENERATION_PATH}`);
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  if (PENDING.has(status)) return { state: 'pending' };
  if (status !== 'Success') throw new MalformedVendorResponse(PROVIDER_ID, 'status', `known status (got "${status}")`);
  return { state: 'succeeded', fileId: fileIdOf(data), width: dimension(data, 'video_width'), height: dimension(data, 'video_height') };
}

/** The schema types `file_id` as a string; some answers carry it as a number, which names the same file. */
function fileIdOf(data: unknown): string {
  const id = pick(data, 'file_id');
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
  return requireField<string>(data, 'file_id', PROVIDER_ID);
}

/** MiniMax gives a failed task's reason, if any, as a non-zero `base_resp` (e.g. 1026, sensitive content). */
function failureReason(data: unknown): string {
  const code = pick(data, 'base_resp.status_code');
  const message = pick(data, 'base_resp.status_msg');
  if (typeof code === 'number' && code !== 0 && typeof message === 'string' && message !== '') return `${message} (code ${code})`;
  return 'the generation failed without a reason';
}

function dimension(data: unknown, path: string): number | undefined {
  const value = pick(data, path);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
