/**
 * What the partner2 tests share: credentials, the Videos API host with its Bearer key required, Video
 * objects shaped like the reference's (https://developers.openai.com/api/reference/resources/videos, openai-python
 * `types/video.py`), the MP4 the content endpoint serves, and the four asynchronous operations as data so
 * every one of them runs the same life-cycle and failure tests.
 */
import nock from 'nock';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';

export const API = 'https://api.openai.com';
export const API_KEY = 'sk-test-partner2-not-real';
export const CONFIG = { api_key: API_KEY };
/** Where the tests' inputs live; the failure suite recognises input interceptors by `/inputs/`. */
export const INPUTS = 'https://media.example';

/** The Videos API with the Bearer key required on every call. */
export function videosApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${API_KEY}` } });
}

/** A Video object (the create, edit, remix and retrieve answer). */
export function videoObject(id: string, status: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    object: 'video',
    created_at: 1758941485,
    completed_at: status === 'completed' ? 1758941610 : null,
    expires_at: status === 'completed' ? 1759027910 : null,
    error: null,
    model: 'sora-2',
    progress: status === 'completed' ? 100 : 0,
    prompt: 'a calico cat playing a grand piano',
    remixed_from_video_id: null,
    seconds: '4',
    size: '1280x720',
    status,
    ...fields,
  };
}

/** Stand-in MP4 bytes (an `ftyp` box, then filler): what `GET /v1/videos/{id}/content?variant=video` serves. */
export const MP4 = Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.from('partner2 rendered clip')]);

/** The content endpoint serving the finished MP4 of `id`. */
export function serveVideo(id: string, bytes: Buffer = MP4): nock.Scope {
  return videosApi().matchHeader('accept', 'application/binary').get(`/v1/videos/${id}/content`).query({ variant: 'video' }).reply(200, bytes, { 'content-type': 'video/mp4' });
}

/** A documented 400 (OpenAI error body). */
export const INVALID_SIZE = {
  error: {
    message: "Invalid value: '1920x1080'. Supported values are: '720x1280', '1280x720'.",
    type: 'invalid_request_error',
    param: 'size',
    code: 'invalid_value',
  },
};

/** One asynchronous operation: its input, the exact create call it makes, and what its task and output hold. */
export interface VideoJobCase {
  operation: string;
  /** The manifest's model value (route(operation, model)); the default model when absent. */
  model?: string;
  input: JsonObject;
  /** Method and path of the create call. */
  path: string;
  /** The exact JSON body the create call sends. */
  body: nock.DataMatcherMap;
  /** The new job's id, as the vendor answers it. */
  videoId: string;
  /** `output.model`. */
  publicModel: string;
  /** Output fields beyond the common six. */
  extraOutput: JsonObject;
}

export const VIDEO_JOB_CASES: VideoJobCase[] = [
  {
    operation: 'video.generate',
    model: 'partner-2',
    input: { prompt: 'a cat jumps onto a kitchen counter, handheld camera', model: 'partner-2', duration: 8, resolution: '720p', aspect_ratio: '9:16' },
    path: '/v1/videos',
    body: { model: 'sora-2', prompt: 'a cat jumps onto a kitchen counter, handheld camera', seconds: '8', size: '720x1280' },
    videoId: 'video_68d7512d07848190b3e45da0ecbebcde004da08e1e0678d5',
    publicModel: 'partner-2',
    extraOutput: { duration: 8, aspect_ratio: '9:16' },
  },
  {
    operation: 'partner2.video.generate_with_characters',
    input: { prompt: 'Mochi the otter waves at the camera on a sunny beach', characters: ['char_6a3b1f0e9d2c'], duration: 12, aspect_ratio: '16:9' },
    path: '/v1/videos',
    body: { model: 'sora-2', prompt: 'Mochi the otter waves at the camera on a sunny beach', seconds: '12', size: '1280x720', characters: [{ id: 'char_6a3b1f0e9d2c' }] },
    videoId: 'video_6901c1d4e5f60718293a4b5c6d7e8f90',
    // quality routes the model: the public name is the vendor model (no `model` field in this operation).
    publicModel: 'sora-2',
    extraOutput: { duration: 12 },
  },
  {
    operation: 'partner2.video.edit',
    model: 'partner-2-pro',
    input: { partner_video_id: 'video_example123', prompt: 'make it night time with neon reflections', model: 'partner-2-pro', duration: 4, resolution: '1080p' },
    path: '/v1/videos/edits',
    body: { video: { id: 'video_example123' }, prompt: 'make it night time with neon reflections' },
    videoId: 'video_7a8b9c0d1e2f30415263748596a7b8c9',
    publicModel: 'partner-2-pro',
    extraOutput: {},
  },
  {
    operation: 'partner2.video.remix',
    input: { partner_video_id: 'video_example123', prompt: 'make it night time with neon reflections', model: 'partner-2', duration: 4 },
    path: '/v1/videos/video_example123/remix',
    body: { prompt: 'make it night time with neon reflections' },
    videoId: 'video_8b9c0d1e2f3041526374859607a8b9ca',
    publicModel: 'partner-2',
    extraOutput: {},
  },
];
