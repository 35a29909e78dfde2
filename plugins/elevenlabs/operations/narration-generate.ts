/**
 * narration.generate: text-to-speech, or text-to-speech with character timing when `include_timestamps`
 * is set. Synchronous, and the spec's output has no task_id ("returned as soon as synthesis completes").
 */
import { buildRequest, elevenLabsHttp, hostAudio, postForAudio, REQUESTED_AUDIO_TYPE } from '../elevenlabs-api.js';
import type { ElevenLabsHandler } from '../elevenlabs-config.js';
import { textToSpeech } from '../endpoints/text-to-speech.js';
import { readTimestampedSpeech, textToSpeechWithTimestamps } from '../endpoints/text-to-speech-with-timestamps.js';
import { finishedAudio } from '../finished-audio.js';

export const narrationGenerate: ElevenLabsHandler = {
  async start(input, ctx, route) {
    if (input.include_timestamps !== true) {
      const { file } = await postForAudio(ctx, textToSpeech, input, route);
      return { done: finishedAudio(file, route) };
    }
    const request = buildRequest(textToSpeechWithTimestamps, input, route, ctx.config);
    const response = await elevenLabsHttp(ctx).request({ ...request, responseType: 'json' });
    const speech = readTimestampedSpeech(response.data);
    const file = await hostAudio(ctx, speech.audio, REQUESTED_AUDIO_TYPE, `POST /${request.path}`);
    return { done: finishedAudio(file, route, { alignment: speech.alignment }) };
  },
};
