/**
 * Input images as a BFL model takes them: into its own body fields, as URLs BFL fetches itself or as base64 the
 * gateway fetches first. More images than the model has fields would be dropped without a word, and the client
 * would believe they guided the image, so the request is refused before anything is fetched or sent.
 */
import { ProviderError, type JsonObject } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type BflContext } from './bfl-vendor.js';
import type { BflImageModel } from './image-models.js';

/**
 * "Supports up to 20MB or 20 megapixels" (https://docs.bfl.ai/kontext/kontext_image_editing, `input_image`);
 * applied to inline data we send, the only case where the gateway reads the image.
 */
const MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024;

/** Refuses, before any I/O, more images than `model` takes; `what` names them for the client. */
export function checkInputImageCount(model: BflImageModel, count: number, what: string): void {
  const room = model.inputImages.fields.length;
  if (count <= room) return;
  throw new ProviderError(`${PROVIDER_ID}: ${model.name} takes at most ${room} ${what}${room === 1 ? '' : 's'}, got ${count}`, {
    provider: PROVIDER_ID,
    retryable: false,
    vendorCode: 'too_many_input_images',
  });
}

/**
 * The body fields for `urls` (checked with `checkInputImageCount`). BFL fetches URLs itself, so hosted inputs
 * must be publicly reachable; base64 images are read through `ctx.blobs` (our own files from the store, others
 * through the guarded fetch). `field` names the input the URLs came from in fetch errors (`field[0]`).
 */
export async function inputImageFields(model: BflImageModel, urls: string[], ctx: BflContext, field: string): Promise<JsonObject> {
  const values =
    model.inputImages.encoding === 'url'
      ? urls
      : await Promise.all(urls.map(async (url, index) => (await ctx.blobs.fetchInput(url, { maxBytes: MAX_INLINE_IMAGE_BYTES, field: `${field}[${index}]` })).bytes.toString('base64')));
  return Object.fromEntries(values.map((value, index) => [model.inputImages.fields[index], value]));
}
