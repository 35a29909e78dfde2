/**
 * The output every ElevenLabs operation finishes with: hosted audio, who made it, and the operation's own
 * fields (a task id for sound effects and music, alignment for narration with timestamps).
 */
import { generatedTaskId, type HostedFile, type JsonObject, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './elevenlabs-config.js';

export function finishedAudio(file: HostedFile, route: RoutedModel, fields: JsonObject = {}): JsonObject {
  return { asset_type: 'audio', status: 'succeeded', audio_url: file.url, provider: PROVIDER_ID, model: route.publicName, ...fields };
}

/**
 * ElevenLabs answers synchronously and has no task; its `request-id` response header is the id its
 * support can trace (https://elevenlabs.io/docs/developer-guides/cookbooks/text-to-speech/request-stitching),
 * so it becomes the task id when present.
 */
export function taskIdFrom(vendorRequestId: string | undefined): string {
  return vendorRequestId || generatedTaskId(PROVIDER_ID, 8);
}
