/**
 * What the Qwen image tests share: the synchronous endpoint, its answer as DashScope documents it
 * (https://docs.qwencloud.com/api-reference/image-generation/qwen-text-to-image) and the rendered image on OSS.
 */
import nock from 'nock';
import { API, KEY, OSS } from './dashscope-test-kit.js';

export const GENERATION_PATH = '/api/v1/services/aigc/multimodal-generation/generation';
export const REQUEST_ID = 'd0250a3d-b07f-49e1-bdc8-6793f4929a1c';
export const IMAGE_PATH = '/7d/2a/20260715/b1c9e2f3/d0250a3d-b07f-49e1-bdc8-6793f4929a1c.png';
export const IMAGE_QUERY = { Expires: '1784160000', OSSAccessKeyId: 'LTAI5tTestOnly', Signature: 'aW1hZ2U=' };
export const IMAGE_URL = `${OSS}${IMAGE_PATH}?${new URLSearchParams(IMAGE_QUERY).toString()}`;

/** The synchronous endpoint: bearer key and JSON, and no asynchronous header (this call answers with the image). */
export function generationApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, badheaders: ['x-dashscope-async'] });
}

/** The documented success answer; `usage` states the rendered size. */
export function rendered(width = 1664, height = 928, imageUrl = IMAGE_URL): Record<string, unknown> {
  return {
    output: { choices: [{ finish_reason: 'stop', message: { content: [{ image: imageUrl }], role: 'assistant' } }] },
    usage: { height, image_count: 1, width },
    request_id: REQUEST_ID,
  };
}

/** The rendered image on OSS, served with the generic type an OSS link may declare. */
export function serveImage(bytes: Buffer): nock.Scope {
  return nock(OSS).get(IMAGE_PATH).query(IMAGE_QUERY).reply(200, bytes, { 'content-type': 'application/octet-stream' });
}
