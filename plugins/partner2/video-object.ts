/**
 * The Video object that every create, edit and remix call answers and `GET /v1/videos/{video_id}` returns
 * (https://developers.openai.com/api/reference/resources/videos/methods/retrieve; openai-python
 * `src/openai/types/video.py`): `{id: "video_…", object: "video", status, progress, error {code, message}, …}`,
 * read into what the task life cycle needs. Pure: no I/O.
 */
import { pick, ProviderError, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './partner2-vendor.js';

export type VideoJobView =
  | { state: 'pending'; progress?: number }
  | { state: 'failed'; message: string }
  | { state: 'completed' };

/**
 * The documented statuses are queued, in_progress, completed and failed. OpenAI's own Sora CLI also stops on
 * `canceled` and `expired` (openai/skills, skills/.curated/sora/scripts/sora.py, TERMINAL_STATUSES); a
 * compatible server may send them, and they end the job as surely as `failed`.
 */
const ENDED_WITHOUT_VIDEO: Record<string, string> = {
  failed: 'the video job failed without a reason',
  canceled: 'the video job was cancelled',
  cancelled: 'the video job was cancelled',
  expired: 'the video job expired',
};

export function readVideoJob(data: unknown): VideoJobView {
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  if (status === 'queued' || status === 'in_progress') return { state: 'pending', progress: progressOf(data) };
  if (status === 'completed') return { state: 'completed' };
  const fallback = ENDED_WITHOUT_VIDEO[status];
  if (fallback !== undefined) return { state: 'failed', message: `${PROVIDER_ID}: ${failureReason(data) ?? fallback}` };
  // Anything else is outside the documented life cycle: waiting would only run into the give-up time.
  throw new ProviderError(`${PROVIDER_ID}: malformed response: unknown video status "${status}"`, {
    provider: PROVIDER_ID,
    retryable: false,
    vendorCode: 'malformed_response',
  });
}

/** `progress` is an "approximate completion percentage"; clamped, and left out when absent. */
function progressOf(data: unknown): number | undefined {
  const progress = pick(data, 'progress');
  return typeof progress === 'number' && Number.isFinite(progress) ? Math.min(100, Math.max(0, progress)) : undefined;
}

/** `error.message`, with `error.code` before it when there is one (e.g. `moderation_blocked`). */
function failureReason(data: unknown): string | undefined {
  const message = pick(data, 'error.message');
  const code = pick(data, 'error.code');
  if (typeof message !== 'string' || message.trim() === '') return typeof code === 'string' && code !== '' ? code : undefined;
  return typeof code === 'string' && code !== '' ? `${message.trim()} (${code})` : message.trim();
}
