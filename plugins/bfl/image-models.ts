/**
 * The BFL image endpoints the gateway routes to, one entry each: `POST v1/<name>`, where `name` is the
 * manifest's `vendor_model`. What differs between them is data: how the output shape is asked for, and how
 * many input images go in which body fields, as URLs or base64. Everything else (prompt, polling, the result)
 * is shared.
 */
import { unsupportedModel, type JsonObject } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './bfl-vendor.js';
import { pixelSize, type PixelGrid } from './pixel-size.js';

export interface BflImageModel {
  /** BFL's endpoint name, e.g. `flux-2-pro`. */
  name: string;
  /**
   * The body fields that carry input images, in order (the first is the image an edit changes). `url`: BFL
   * fetches the image itself; `base64`: only inline data is documented, so the gateway fetches it.
   */
  inputImages: { fields: string[]; encoding: 'url' | 'base64' };
  /** Whether the first input image is a source to edit (image.edit), not only a guide. */
  edits: boolean;
  /** The body fields that ask for the output shape; `resolution` is the manifest's class (1K, 2K). */
  shape(aspectRatio: string, resolution: string): JsonObject;
}

/** `1K` and `2K` as pixel counts: BFL calls 2048 x 2048 its 4 MP maximum. */
const RESOLUTION_AREAS: Record<string, number> = { '1K': 1024 * 1024, '2K': 2048 * 2048 };

/**
 * FLUX1.1 [pro] (https://docs.bfl.ai/flux_models/flux_1_1_pro): `width`/`height` multiples of 32 within
 * 256-1440 (BFL's client checks exactly these, black-forest-labs/flux src/flux/api.py), ~1 MP. One input image
 * at most: `image_prompt`, FLUX Redux guidance towards its composition, documented as base64 only. There is no
 * weight for it on this endpoint (`image_prompt_strength` belongs to 1.1 [pro] Ultra), so
 * `reference_prompt_balance` is not sent.
 */
export const fluxPro11: BflImageModel = {
  name: 'flux-pro-1.1',
  inputImages: { fields: ['image_prompt'], encoding: 'base64' },
  edits: false,
  shape: (aspectRatio) => ({ ...pixelSize(aspectRatio, { area: RESOLUTION_AREAS['1K'], step: 32, minSide: 256, maxSide: 1440 }) }),
};

/**
 * FLUX.1 Kontext [pro] (POST /v1/flux-kontext-pro, https://docs.bfl.ai/kontext/kontext_text_to_image and
 * kontext_image_editing): `aspect_ratio` between 3:7 and 7:3 (every ratio of our manifests), always ~1 MP.
 * `input_image` is the image to edit, as a URL or base64; `input_image_2`..`_4` are BFL's "experimental
 * multiref" fields. Without `aspect_ratio` an edit keeps the source's shape. No weight for the input images.
 */
export const fluxKontextPro: BflImageModel = {
  name: 'flux-kontext-pro',
  inputImages: { fields: numberedInputImages(4), encoding: 'url' },
  edits: true,
  shape: (aspectRatio) => ({ aspect_ratio: aspectRatio }),
};

/**
 * FLUX.2 [pro] (POST /v1/flux-2-pro, https://docs.bfl.ai/api-reference/models/generate-or-edit-an-image-with-flux2-[pro]):
 * `width`/`height` multiples of 16, at most 4 MP with no side above 2048 (https://help.bfl.ai/articles/
 * 1691577414-can-i-generate-different-aspect-ratios-compared-to-what-the-input-image-is: 21:9 at the maximum is
 * 2048 x 880); up to 8 input images (`input_image`..`input_image_8`), URLs or base64. No weight for them.
 */
export const flux2Pro: BflImageModel = {
  name: 'flux-2-pro',
  inputImages: { fields: numberedInputImages(8), encoding: 'url' },
  edits: true,
  shape: (aspectRatio, resolution) => ({ ...pixelSize(aspectRatio, flux2Grid(resolution)) }),
};

const MODELS = [fluxPro11, fluxKontextPro, flux2Pro];

/** The endpoint for a route's vendor model; any other name fails the request before anything is sent. */
export function bflImageModel(vendorModel: string): BflImageModel {
  const model = MODELS.find(({ name }) => name === vendorModel);
  if (model) return model;
  throw unsupportedModel(PROVIDER_ID, `${vendorModel} is not a BFL image model this gateway knows`);
}

function flux2Grid(resolution: string): PixelGrid {
  return { area: RESOLUTION_AREAS[resolution] ?? RESOLUTION_AREAS['1K'], step: 16, minSide: 64, maxSide: 2048 };
}

/** `input_image`, `input_image_2`, ... `input_image_<count>`. */
function numberedInputImages(count: number): string[] {
  return Array.from({ length: count }, (_, index) => (index === 0 ? 'input_image' : `input_image_${index + 1}`));
}
