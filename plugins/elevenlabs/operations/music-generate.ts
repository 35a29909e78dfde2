/**
 * music.generate for provider B (ElevenLabs Music, models music_v1 and music_v2).
 */
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { postForAudio, stringField } from '../elevenlabs-api.js';
import { PROVIDER_ID, type ElevenLabsHandler } from '../elevenlabs-config.js';
import { musicCompose } from '../endpoints/music-compose.js';
import { finishedAudio, taskIdFrom } from '../finished-audio.js';

const TITLE_MAX_CHARACTERS = 60;

export const musicGenerate: ElevenLabsHandler = {
  async start(input, ctx, route) {
    const { file, vendorRequestId } = await postForAudio(ctx, musicCompose, input, route);
    const fields = { task_id: taskIdFrom(vendorRequestId), requested_provider: stringField(input, 'provider') ?? PROVIDER_ID, title: trackTitle(input) };
    return { done: finishedAudio(file, route, fields) };
  },
};

/**
 * The vendor names nothing, so a track without a `title` is called after the first sentence of its
 * prompt, cut at a word boundary.
 */
export function trackTitle(input: JsonObject): string {
  const given = stringField(input, 'title')?.trim();
  if (given) return given;
  const prompt = stringField(input, 'prompt') ?? stringField(input, 'description_prompt') ?? '';
  const sentence = prompt.split(/[.!?\n]/)[0].replace(/\s+/g, ' ').trim();
  if (!sentence) return 'Untitled';
  const space = sentence.lastIndexOf(' ', TITLE_MAX_CHARACTERS);
  const cut = sentence.length <= TITLE_MAX_CHARACTERS ? sentence : sentence.slice(0, space > 0 ? space : TITLE_MAX_CHARACTERS);
  return cut.charAt(0).toLocaleUpperCase() + cut.slice(1);
}
