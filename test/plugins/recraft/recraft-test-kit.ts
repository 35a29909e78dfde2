/**
 * What the recraft tests share: credentials, the API host with its Bearer key required, a host for image links
 * (Recraft documents their lifetime, not their form), and bodies shaped like Recraft's `GenerateImageResponse`
 * (Recraft's OpenAPI document: `created`, `credits`, `data[]` of `Image` with the required `image_id`).
 */
import nock from 'nock';

export const API = 'https://external.api.recraft.ai';
export const API_KEY = 'recraft-test-not-real';
export const CONFIG = { api_key: API_KEY };
export const GENERATIONS_PATH = '/v1/images/generations';
/** Where the tests' reference images would live. */
export const INPUTS = 'https://images.example';

export const CDN = 'https://img.recraft.ai';
export const IMAGE_PATH = '/images/0f0c6d1e-3a1b-4b0f-9d29-4d5f1c1a7e33.webp';
export const IMAGE_URL = `${CDN}${IMAGE_PATH}`;
export const IMAGE_ID = '0f0c6d1e-3a1b-4b0f-9d29-4d5f1c1a7e33';

/** Recraft's API with the Bearer key required on every call. */
export function recraftApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${API_KEY}` } });
}

/** The image link of the answer serving `bytes`. */
export function recraftCdn(bytes: Buffer, contentType = 'image/webp'): nock.Scope {
  return nock(CDN).get(IMAGE_PATH).reply(200, bytes, { 'content-type': contentType });
}

/** A `GenerateImageResponse`: `created`, `credits` (Recraft API units) and one `Image` per entry of `images`. */
export function generationsResponse(images: Array<{ url?: string; image_id?: string }> = [{}]): Record<string, unknown> {
  return { created: 1698916476, credits: 40, data: images.map((image) => ({ image_id: IMAGE_ID, url: IMAGE_URL, ...image })) };
}
