/**
 * video.generate (model hailuo-02 -> MiniMax-Hailuo-02) on MiniMax: `start` creates the task, `status` polls it
 * and, once it succeeded, resolves its `file_id` to a download link and copies the MP4 into our storage.
 *
 * No `reconcile`: the create documents neither an idempotency key nor a client id a lookup accepts (tasks are
 * queried by the `task_id` MiniMax returns), so a create whose answer was lost fails with a refund. No
 * `cancel`: the v1 video API documents none.
 */
import { askedVideoShape, requireField, videoTaskStatus, type JsonObject, type ProviderTask, type RoutedModel, type StartResult, type StatusResult } from '../../src/kernel/plugin-sdk/index.js';
import { aspectRatioLabel } from './aspect-ratio-label.js';
import { minimaxHttp, PROVIDER_ID, unwrapBaseResp, type MinimaxContext, type MinimaxHandler } from './minimax-vendor.js';
import { QUERY_VIDEO_GENERATION_PATH, readVideoTask } from './query-video-generation.js';
import { readDownloadUrl, RETRIEVE_FILE_PATH } from './retrieve-file.js';
import { DEFAULT_DURATION_SECONDS, hasFirstFrame, TEXT_TO_VIDEO_ASPECT_RATIO, VIDEO_GENERATION_PATH, videoGenerationBody } from './video-generation.js';

export const videoGenerate: MinimaxHandler = {
  async start(input: JsonObject, ctx: MinimaxContext, route: RoutedModel): Promise<StartResult> {
    const json = videoGenerationBody(input, route);
    const { data } = await minimaxHttp(ctx).request({ method: 'POST', path: VIDEO_GENERATION_PATH, json });
    const taskId = requireField<string>(unwrapBaseResp(data, `POST /${VIDEO_GENERATION_PATH}`), 'task_id', PROVIDER_ID);
    return { task: { taskId, state: outputState(input, json) } };
  },

  async status(task: ProviderTask, ctx: MinimaxContext, route: RoutedModel): Promise<StatusResult> {
    const http = minimaxHttp(ctx);
    const { data } = await http.request({ path: QUERY_VIDEO_GENERATION_PATH, query: { task_id: task.taskId } });
    const view = readVideoTask(data);
    const head = { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName };
    // MiniMax reports no length: the clip is rendered at the length asked (6 or 10 s). The query documents
    // `video_width`/`video_height` on success; without them the shape known at start stands in (a first-frame clip
    // whose client named no ratio is then stated as the landscape default).
    const asked = askedVideoShape(task, { durationSeconds: DEFAULT_DURATION_SECONDS, aspectRatio: TEXT_TO_VIDEO_ASPECT_RATIO });
    if (view.state !== 'succeeded') return videoTaskStatus(view, ctx, head, asked);

    // A finished task names a file; its download link is short-lived, so it is resolved only now.
    const file = await http.request({ path: RETRIEVE_FILE_PATH, query: { file_id: view.fileId } });
    const aspectRatio = view.width && view.height ? aspectRatioLabel(view.width, view.height) : undefined;
    return videoTaskStatus({ state: 'succeeded', videoUrl: readDownloadUrl(file.data), aspectRatio }, ctx, head, asked);
  },
};

/** What the output must state that the query does not report, kept with the task (JSON only). */
function outputState(input: JsonObject, json: JsonObject): JsonObject {
  return {
    duration: typeof json.duration === 'number' ? json.duration : DEFAULT_DURATION_SECONDS,
    // Prompt-only clips are always 16:9; a first-frame clip has the image's shape, known only from the result.
    aspect_ratio: hasFirstFrame(input) ? (typeof input.aspect_ratio === 'string' ? input.aspect_ratio : null) : TEXT_TO_VIDEO_ASPECT_RATIO,
  };
}
