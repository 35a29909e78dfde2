/**
 * image.edit with Seedream 4.0: the instruction and the source image on the generations endpoint. Without an
 * aspect ratio the edit keeps the source's shape (image.edit's promise), which Seedream does only when told the
 * pixels: the plugin reads the source's dimensions and asks for that shape at the resolution class.
 */
import sharp from 'sharp';
import { unsupportedInput, type JsonObject, type RoutedModel, type StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type ArkContext, type ArkHandler } from './ark-vendor.js';
import { renderSeedream } from './images-generations.js';
import { ratioOf, seedreamSize } from './seedream-size.js';

/** A single input image may be up to 30 MB (https://docs.byteplus.com/en/docs/ModelArk/1824121, input limits). */
const MAX_SOURCE_BYTES = 30 * 1024 * 1024;

/** Input formats Seedream 4.0 reads, by sharp's format name (same page); a data URI names them in lower case. */
const SEEDREAM_INPUT_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'bmp', 'tiff', 'gif']);

export const imageEdit: ArkHandler = {
  async start(input: JsonObject, ctx: ArkContext, route: RoutedModel): Promise<StartResult> {
    // The source is read anyway for its dimensions, so it travels inline: Seedream need not reach our storage.
    const { bytes } = await ctx.blobs.fetchInput(String(input.image_url), { maxBytes: MAX_SOURCE_BYTES, field: 'image_url' });
    const source = await describeSource(bytes);
    const ratio = ratioOf(input.aspect_ratio) ?? source.width / source.height;
    const size = seedreamSize(ratio, typeof input.resolution === 'string' ? input.resolution : undefined);
    const image = `data:image/${source.format};base64,${bytes.toString('base64')}`;
    const { urls, taskId } = await renderSeedream(ctx, route, input, { size, image });
    return { done: { task_id: taskId, asset_type: 'image', status: 'succeeded', image_url: urls[0], provider: PROVIDER_ID, model: route.publicName } };
  },
};

/** The source's upright dimensions (EXIF orientations 5-8 swap the sides) and format; refused before any vendor call when unreadable. */
async function describeSource(bytes: Buffer): Promise<{ width: number; height: number; format: string }> {
  const metadata = await sharp(bytes).metadata().catch(() => undefined);
  const { width, height, format } = metadata ?? {};
  if (!width || !height || !format || !SEEDREAM_INPUT_FORMATS.has(format)) {
    throw unsupportedInput(PROVIDER_ID, 'image_url is not an image Seedream can edit (JPEG, PNG, WebP, BMP, TIFF or GIF)');
  }
  const rotated = (metadata?.orientation ?? 1) >= 5;
  return { width: rotated ? height : width, height: rotated ? width : height, format };
}
