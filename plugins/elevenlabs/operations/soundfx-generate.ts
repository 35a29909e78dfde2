/**
 * soundfx.generate, one-off mode (ElevenLabs sound effects v2). The video_context mode routes to
 * another plugin, so only one_off reaches this one.
 */
import { postForAudio } from '../elevenlabs-api.js';
import type { ElevenLabsHandler } from '../elevenlabs-config.js';
import { soundGeneration } from '../endpoints/sound-generation.js';
import { finishedAudio, taskIdFrom } from '../finished-audio.js';

export const soundfxGenerate: ElevenLabsHandler = {
  async start(input, ctx, route) {
    const { file, vendorRequestId } = await postForAudio(ctx, soundGeneration, input, route);
    return { done: finishedAudio(file, route, { task_id: taskIdFrom(vendorRequestId), mode: route.model }) };
  },
};
