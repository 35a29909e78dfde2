/**
 * music.generate (models V4, V4_5, V4_5PLUS, V5, V6) on sunoapi.org:
 *   POST api/v1/generate -> data.taskId (https://docs.sunoapi.org/suno-api/generate-music);
 *   GET api/v1/generate/record-info?taskId= -> data.status, data.response.sunoData[].audioUrl
 *   (https://docs.sunoapi.org/suno-api/get-music-generation-details).
 * Each generation yields two tracks; the output names the first.
 */
import {
  mapFields,
  pick,
  ProviderError,
  requireField,
  type FieldMap,
  type JsonObject,
  type JsonValue,
} from '../../src/kernel/plugin-sdk/index.js';
import { sunoCall } from './suno-api.js';
import { DEFAULT_CALLBACK_URL, PROVIDER_ID, type SunoHandler } from './suno-config.js';

const GENERATE_PATH = 'api/v1/generate';
const RECORD_INFO_PATH = 'api/v1/generate/record-info';

/**
 * Our input field -> sunoapi.org's body field. `model` comes from the route, `callBackUrl` from config.
 * Not sent, because Suno has no such control: mode (a client label), duration_seconds, generation_mode,
 * prompt_influence, seed.
 */
export const generateRequest: FieldMap = {
  custom_mode: { to: 'customMode', default: false },
  instrumental: { to: 'instrumental', default: false },
  // Lyrics in custom mode, otherwise the description (at most 500 characters, enforced by the manifest).
  prompt: 'prompt',
  description_prompt: { to: 'prompt', transform: (description, input) => (input.prompt === undefined ? description : undefined) },
  // "In non-custom mode only prompt is required ... other parameters should be left empty."
  style: { to: 'style', transform: customModeOnly },
  title: { to: 'title', transform: customModeOnly },
  persona_id: { to: 'personaId', transform: customModeOnly },
  negative_tags: 'negativeTags',
  vocal_gender: { to: 'vocalGender', transform: sunoVocalGender },
  style_weight: 'styleWeight',
  weirdness_constraint: 'weirdnessConstraint',
  audio_weight: 'audioWeight',
};

/** record-info statuses (https://docs.sunoapi.org/suno-api/get-music-generation-details, "Status Descriptions"). */
const STILL_RUNNING = new Set(['PENDING', 'TEXT_SUCCESS', 'FIRST_SUCCESS']);
const FAILED = new Set(['CREATE_TASK_FAILED', 'GENERATE_AUDIO_FAILED', 'CALLBACK_EXCEPTION', 'SENSITIVE_WORD_ERROR']);

export const musicGenerate: SunoHandler = {
  async start(input, ctx, route) {
    const body = mapFields(input, generateRequest, { model: route.vendorModel, callBackUrl: ctx.config.callback_url ?? DEFAULT_CALLBACK_URL });
    const answer = await sunoCall(ctx, { method: 'POST', path: GENERATE_PATH, json: body });
    return { task: { taskId: requireField<string>(answer, 'data.taskId', PROVIDER_ID) } };
  },

  async status(task, ctx, route) {
    const answer = await sunoCall(ctx, { path: RECORD_INFO_PATH, query: { taskId: task.taskId } });
    const status = requireField<string>(answer, 'data.status', PROVIDER_ID);
    // FIRST_SUCCESS means one of the two tracks is done, not necessarily the first listed: wait for both.
    if (STILL_RUNNING.has(status)) return { pending: {} };
    if (FAILED.has(status)) {
      const reason = pick(answer, 'data.errorMessage');
      return { failed: `suno: ${typeof reason === 'string' && reason !== '' ? reason : `generation ended with ${status}`}` };
    }
    if (status !== 'SUCCESS') {
      throw new ProviderError(`suno: malformed response: unknown data.status "${status}"`, {
        provider: PROVIDER_ID,
        retryable: false,
        vendorCode: 'malformed_response',
      });
    }
    const vendorUrl = requireField<string>(answer, 'data.response.sunoData.0.audioUrl', PROVIDER_ID);
    // sunoapi.org deletes files after 15 days; its audioUrl is an MP3.
    const hosted = await ctx.blobs.rehost(vendorUrl, { contentType: 'audio/mpeg', extension: 'mp3' });
    const title = pick(answer, 'data.response.sunoData.0.title');
    const output: JsonObject = {
      task_id: task.taskId,
      asset_type: 'audio',
      status: 'succeeded',
      audio_url: hosted.url,
      requested_provider: PROVIDER_ID,
      provider: PROVIDER_ID,
      model: route.publicName,
      title: typeof title === 'string' ? title : '',
    };
    return { done: output };
  },
};

function customModeOnly(value: JsonValue, input: JsonObject): JsonValue | undefined {
  return input.custom_mode === true ? value : undefined;
}

/** Suno takes `m` or `f`; the long forms are accepted too, anything else is left out. */
export function sunoVocalGender(value: JsonValue): string | undefined {
  if (typeof value !== 'string') return undefined;
  const gender = value.trim().toLowerCase();
  if (gender === 'm' || gender === 'male') return 'm';
  if (gender === 'f' || gender === 'female') return 'f';
  return undefined;
}
