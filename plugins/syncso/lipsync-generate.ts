/**
 * lipsync.generate (model lipsync-2) on sync.: `start` creates the generation, `status` polls it and hosts the
 * synced video. sync. documents no cancel endpoint (the API overview lists generate, upload, get, list,
 * estimate cost and batch: https://sync.so/docs/api-reference), so there is no `cancel`.
 *
 * `audio_url` in the output is our own copy of the audio the client sent, made in `start` before sync. is
 * paid: an audio the gateway cannot fetch fails the request for free, the output never depends on the
 * client's link staying up, and the copy sits with the request's other files (so retention removes them
 * together). An audio already in our storage is copied from the store, not over HTTP.
 */
import { finishedAsset, ProviderError, requireField, type JsonObject, type ProviderTask, type RoutedModel, type StartResult, type StatusResult } from '../../src/kernel/plugin-sdk/index.js';
import { CREATE_GENERATION_PATH, createGenerationBody, hostedUrl, idempotencyHeaders } from './create-generation.js';
import { generationPath, readGeneration } from './get-generation.js';
import { PROVIDER_ID, syncsoHttp, type SyncsoContext, type SyncsoHandler } from './syncso-vendor.js';

export const lipsyncGenerate: SyncsoHandler = {
  async start(input: JsonObject, ctx: SyncsoContext, route: RoutedModel): Promise<StartResult> {
    const body = createGenerationBody(input, route);
    const audio = await ctx.blobs.rehost(hostedUrl(input, 'audio_url'));
    // Keyed by our request id, so a resend after a lost answer finds the same generation (create-generation.ts).
    const { data } = await syncsoHttp(ctx).request({ method: 'POST', path: CREATE_GENERATION_PATH, headers: idempotencyHeaders(ctx.requestId), json: body, idempotent: true });
    return { task: { taskId: requireField<string>(data, 'id', PROVIDER_ID), state: { audio_url: audio.url } } };
  },

  /** A submission whose answer was lost is resent with the same key: sync. answers with the generation it has. */
  reconcile(input: JsonObject, ctx: SyncsoContext, route: RoutedModel): Promise<StartResult> {
    return lipsyncGenerate.start(input, ctx, route);
  },

  async status(task: ProviderTask, ctx: SyncsoContext, route: RoutedModel): Promise<StatusResult> {
    const { data } = await syncsoHttp(ctx).request({ path: generationPath(task.taskId) });
    const view = readGeneration(data);
    if (view.state === 'pending') return { pending: {} };
    if (view.state === 'failed') return { failed: view.message };

    // sync. renders MP4; naming it keeps the hosted type right whatever its storage declares.
    const video = await ctx.blobs.rehost(view.outputUrl, { contentType: 'video/mp4', extension: 'mp4' });
    return {
      done: finishedAsset('video', { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName }, {
        video_url: video.url,
        audio_url: keptAudio(task),
        // sync. bills by the output's length (`outputDuration`); the quote came from the lengths the client declared,
        // and the manifest's settle rule re-prices the request on this one.
        usage: { output_seconds: view.outputSeconds },
      }),
    };
  },
};

/** The copy made in `start`; without it the task did not come from this plugin's `start`. */
function keptAudio(task: ProviderTask): string {
  const kept = task.state?.audio_url;
  if (typeof kept === 'string' && kept !== '') return kept;
  throw new ProviderError('syncso: the task carries no hosted audio_url (it was not started by this plugin)', { provider: PROVIDER_ID, retryable: false });
}
