/**
 * A DashScope asynchronous task as GET api/v1/tasks/{task_id} returns it, read into what the gateway needs;
 * and the task's cancel call. Pure reading, no I/O, so every documented shape is testable without a network.
 * https://docs.qwencloud.com/api-reference/video-generation/wan-text-to-video/query-result
 * Statuses: PENDING, RUNNING, SUCCEEDED, FAILED, CANCELED, and UNKNOWN for an id the service does not know
 * (task ids live 24 hours). A failed task carries `output.code` / `output.message`.
 */
import { failedVideoTask, pick, ProviderError, requireField, type ProviderTask, type VideoTaskView } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './dashscope-vendor.js';

/** Relative to the base URL; cancel is `${taskPath}/cancel`. */
export function taskPath(task: ProviderTask): string {
  return `api/v1/tasks/${encodeURIComponent(task.taskId)}`;
}

export function readDashScopeTask(data: unknown): VideoTaskView {
  const status = requireField<string>(data, 'output.task_status', PROVIDER_ID);
  switch (status) {
    // Queued: nothing rendered yet. DashScope reports no progress while RUNNING, so none is made up.
    case 'PENDING':
      return { state: 'pending', progress: 0 };
    case 'RUNNING':
      return { state: 'pending' };
    case 'SUCCEEDED':
      return { state: 'succeeded', videoUrl: requireField<string>(data, 'output.video_url', PROVIDER_ID), durationSeconds: renderedSeconds(data) };
    case 'FAILED':
      return failedVideoTask(PROVIDER_ID, data, { message: 'output.message', code: 'output.code' });
    case 'CANCELED':
      return { state: 'failed', message: `${PROVIDER_ID}: the task was cancelled` };
    case 'UNKNOWN':
      return { state: 'failed', message: `${PROVIDER_ID}: DashScope does not know the task (task ids expire 24 hours after creation)` };
    default:
      throw new ProviderError(`${PROVIDER_ID}: malformed response: unknown output.task_status "${status}"`, {
        provider: PROVIDER_ID,
        retryable: false,
        vendorCode: 'malformed_response',
      });
  }
}

/**
 * What the vendor bills as rendered: `usage.output_video_duration` on reference runs (whose `usage.duration`
 * adds the input video), `usage.video_duration` elsewhere.
 */
function renderedSeconds(data: unknown): number | undefined {
  for (const path of ['usage.output_video_duration', 'usage.video_duration']) {
    const value = pick(data, path);
    if (typeof value === 'number' && value > 0) return value;
  }
  return undefined;
}
