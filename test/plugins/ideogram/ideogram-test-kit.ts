/**
 * What the ideogram tests share: credentials, the API host with its `Api-Key` header required, the CDN its
 * image links point at, a reader for the multipart form the plugin sends, and bodies shaped like the examples
 * of Ideogram's OpenAPI document (https://api.ideogram.ai/openapi.json, `post_generate_image_v3`).
 */
import nock from 'nock';
import { readMultipart } from '../../support/vendor-conformance.js';

export const API = 'https://api.ideogram.ai';
export const API_KEY = 'ideogram-test-not-real';
export const CONFIG = { api_key: API_KEY };
export const GENERATE_PATH = '/v1/ideogram-v3/generate';
/** Where the tests' reference images live; the failure suite recognises input interceptors by `/inputs/`. */
export const INPUTS = 'https://images.example';

/** Ideogram's image links as the document shows them: ephemeral, signed, with an expiry. */
export const CDN = 'https://ideogram.ai';
export const IMAGE_PATH = '/api/images/ephemeral/xtdZiqPwRxqY1Y7NExFmzB.png';
export const IMAGE_URL = `${CDN}${IMAGE_PATH}?exp=1743867804&sig=e13e12677633f646d8531a153d20e2d3698dca9ee7661ee5ba4f3b64e7ec3f89`;

/** Ideogram's API with the key header required on every call. */
export function ideogramApi(): nock.Scope {
  return nock(API, { reqheaders: { 'api-key': API_KEY } });
}

/** One image link of the CDN answering `bytes`. */
export function ideogramCdn(bytes: Buffer, contentType = 'image/png'): nock.Scope {
  return nock(CDN).get(IMAGE_PATH).query({ exp: '1743867804', sig: 'e13e12677633f646d8531a153d20e2d3698dca9ee7661ee5ba4f3b64e7ec3f89' }).reply(200, bytes, { 'content-type': contentType });
}

/** An `ImageGenerationResponseV3` with one image object per entry of `images` (the document's example values). */
export function generateResponse(images: Array<{ url?: string | null; is_image_safe?: boolean; resolution?: string }> = [{}]): Record<string, unknown> {
  return {
    created: '2000-01-23T04:56:07+00:00',
    data: images.map((image) => ({
      prompt: 'A photo of a cat sleeping on a couch.',
      resolution: '1024x1024',
      is_image_safe: true,
      seed: 12345,
      url: IMAGE_URL,
      style_type: 'GENERAL',
      ...image,
    })),
  };
}

/** The documented 422 (`GenerateImageSafetyError`). */
export const SAFETY_ERROR = { error: 'Prompt provided failed safety check due to the inclusion of prohibited content.' };

/** Registers the generate endpoint and returns a reader for the form it receives. */
export function captureGenerate(reply: Record<string, unknown>): () => Promise<FormData> {
  let body: unknown;
  let contentType = '';
  ideogramApi()
    .matchHeader('content-type', (value) => ((contentType = String(value)), /^multipart\/form-data; boundary=/.test(contentType)))
    .post(GENERATE_PATH, (sent) => ((body = sent), true))
    .reply(200, reply);
  return () => readMultipart(body, contentType);
}

/** The text fields of a form, as an object. */
export function textFields(form: FormData): Record<string, string> {
  return Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string')) as Record<string, string>;
}

/** The files sent under `field`, in order. */
export async function files(form: FormData, field: string): Promise<Array<{ name: string; type: string; bytes: Buffer }>> {
  return Promise.all(
    form.getAll(field).map(async (entry) => {
      const file = entry as File;
      return { name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) };
    }),
  );
}
