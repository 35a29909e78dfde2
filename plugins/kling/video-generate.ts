/**
 * video.generate on Kling (routes kling-2.5-turbo -> kling-v2-5-turbo, kling-2.6 -> kling-v2-6): a first
 * frame (image_url or first_frame_url) makes it an image2video task, anything else a text2video task. The
 * task is polled at the endpoint that created it, which the task state names.
 */
import type { JsonObject } from '../../src/kernel/plugin-sdk/index.js';
import type { KlingTaskHandler } from './kling-api.js';
import type { KlingHandler } from './kling-config.js';
import { framesToVideo, IMAGE2VIDEO_PATH } from './image2video.js';
import { textToVideo } from './text2video.js';

export const videoGenerate: KlingHandler = {
  start: (input, ctx, route) => endpointFor(input).start(input, ctx, route),
  reconcile: (input, ctx, route) => endpointFor(input).reconcile(input, ctx, route),
  status: (task, ctx, route) => (task.state?.path === IMAGE2VIDEO_PATH ? framesToVideo : textToVideo).status(task, ctx, route),
};

function endpointFor(input: JsonObject): KlingTaskHandler {
  return typeof input.image_url === 'string' || typeof input.first_frame_url === 'string' ? framesToVideo : textToVideo;
}
