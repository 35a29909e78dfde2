/**
 * video.generate on Veo 3.1 through the Gemini API (routes veo-3.1 -> veo-3.1-generate-preview, veo-3.1-fast ->
 * veo-3.1-fast-generate-preview): `start` reads the frames and reference images, submits one long-running
 * operation and keeps its name as the task; `status` polls the operation and, once done, copies the video into
 * our storage (Google deletes generated videos after a while: two days, as copies of its Veo guide say).
 *
 * No `reconcile`: the submit carries no client id or idempotency key the Gemini API documents, and operations
 * are found only by the name Google returns. No `cancel`: the Gemini API documents no cancel for Veo operations.
 */
import type { JsonObject, ProviderTask, RoutedModel, StartResult, StatusResult } from '../../src/kernel/plugin-sdk/index.js';
import { askedVideoShape, finishedAsset, MalformedVendorResponse, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { geminiHttp, PROVIDER_ID, type GoogleContext, type GoogleHandler } from './gemini-api.js';
import { operationPath, readVeoOperation, videoDownloadPath } from './veo-operation.js';
import {
  DEFAULT_ASPECT_RATIO,
  DEFAULT_DURATION_SECONDS,
  firstUrl,
  FRAME_INPUTS,
  predictLongRunningRequest,
  referenceUrls,
  refuseUnrenderable,
  type VeoImage,
  type VeoImages,
} from './veo-request.js';

/**
 * Inline data counts against the 20 MB limit of a whole Gemini API request
 * (https://ai.google.dev/gemini-api/docs/image-understanding, "Passing images inline"); no one image may exceed it.
 */
const MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024;

export const videoGenerate: GoogleHandler = {
  async start(input: JsonObject, ctx: GoogleContext, route: RoutedModel): Promise<StartResult> {
    // First, so that a run Veo cannot render fails before any input is fetched.
    refuseUnrenderable(input, route.publicName);
    const images = await readImages(ctx, input);
    const { data } = await geminiHttp(ctx).request({
      method: 'POST',
      // Relative, so that a `base_url` with a path prefix (a proxy) keeps it.
      path: `v1beta/models/${encodeURIComponent(route.vendorModel)}:predictLongRunning`,
      json: predictLongRunningRequest(input, images),
    });
    const name = requireField<string>(data, 'name', PROVIDER_ID);
    // status() no longer sees the input: what the output must state is kept with the task.
    const state: JsonObject = {
      duration: typeof input.duration === 'number' ? input.duration : DEFAULT_DURATION_SECONDS,
      aspect_ratio: typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO,
    };
    return { task: { taskId: name, state } };
  },

  async status(task: ProviderTask, ctx: GoogleContext, route: RoutedModel): Promise<StatusResult> {
    const http = geminiHttp(ctx);
    const operation = readVeoOperation((await http.request({ path: operationPath(task.taskId) })).data);
    // Veo reports no progress while it renders.
    if (operation.state === 'pending') return { pending: {} };
    if (operation.state === 'failed') return { failed: operation.message };

    const { data } = await http.request<Buffer>({
      path: videoDownloadPath(operation.videoUri),
      query: { alt: 'media' },
      headers: { accept: '*/*' },
      responseType: 'bytes',
    });
    if (data.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, 'video download', 'non-empty video');
    // Veo renders MP4 (https://ai.google.dev/gemini-api/docs/video).
    const hosted = await ctx.blobs.put(data, 'video/mp4', 'mp4');
    const asked = askedVideoShape(task, { durationSeconds: DEFAULT_DURATION_SECONDS, aspectRatio: DEFAULT_ASPECT_RATIO });
    return {
      done: finishedAsset('video', { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName }, {
        video_url: hosted.url,
        duration: asked.durationSeconds,
        aspect_ratio: asked.aspectRatio,
      }),
    };
  },
};

async function readImages(ctx: GoogleContext, input: JsonObject): Promise<VeoImages> {
  const read = async (url: string, field: string): Promise<VeoImage> => {
    const { bytes, contentType } = await ctx.blobs.fetchInput(url, { maxBytes: MAX_INLINE_IMAGE_BYTES, field });
    return { bytesBase64Encoded: bytes.toString('base64'), mimeType: contentType };
  };
  const frame = async (fields: readonly string[]): Promise<VeoImage | undefined> => {
    const given = firstUrl(input, fields);
    return given === undefined ? undefined : read(given.url, given.field);
  };
  return {
    image: await frame(FRAME_INPUTS.image),
    lastFrame: await frame(FRAME_INPUTS.lastFrame),
    referenceImages: await Promise.all(referenceUrls(input).map((url) => read(url, 'reference_image_urls'))),
  };
}
