/**
 * `POST /v1/videos/{video_id}/remix` (https://developers.openai.com/api/reference/resources/videos/methods/remix):
 * partner2.video.remix, the legacy form of an edit (OpenAI's Sora skill: "Legacy/deprecated … Use edits for new
 * integrations", openai/skills, skills/.curated/sora/references/video-api.md). JSON body `{prompt}`; it answers
 * the new job's Video object (with `remixed_from_video_id`), whose id is the task.
 *
 * As with edits, model, duration, aspect_ratio and resolution have no vendor field (openai-python
 * `types/video_remix_params.py` holds only `prompt`): the remix keeps the source's settings.
 */
import { mapFields, type FieldMap } from '../../src/kernel/plugin-sdk/index.js';
import { videoJobHandler } from './video-job.js';

export const REMIX_FIELDS: FieldMap = {
  prompt: 'prompt',
};

export const videoRemix = videoJobHandler({
  create: (input) => ({ path: `v1/videos/${encodeURIComponent(String(input.partner_video_id))}/remix`, json: mapFields(input, REMIX_FIELDS) }),
});
