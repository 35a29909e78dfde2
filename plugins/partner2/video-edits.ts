/**
 * `POST /v1/videos/edits` (https://developers.openai.com/api/reference/resources/videos/methods/edit):
 * partner2.video.edit, "a new video generation job by editing a source video or existing generated video".
 * JSON body `{video: {id}, prompt}`; it answers the new job's Video object, whose `video_…` id is the task
 * (the spec: each edit "creates a new request task").
 *
 * Not sent: model, duration, aspect_ratio, resolution. The edit request has only `video` and `prompt`
 * (openai-python `types/video_edit_params.py`; the reference's JSON body) and OpenAI refuses parameters it
 * does not know, so the new video keeps the source's model, length and size. `source_video_url` is for
 * renderers that cannot read the vendor id (the local fallback); the vendor needs only the id.
 */
import { mapFields, type FieldMap } from '../../src/kernel/plugin-sdk/index.js';
import { videoJobHandler } from './video-job.js';

export const EDIT_FIELDS: FieldMap = {
  partner_video_id: 'video.id',
  prompt: 'prompt',
};

export const videoEdit = videoJobHandler({
  create: (input) => ({ path: 'v1/videos/edits', json: mapFields(input, EDIT_FIELDS) }),
});
