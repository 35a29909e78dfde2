/**
 * image.edit: a visible, deterministic edit of the source image: a colour grade seeded by the
 * prompt and the prompt drawn as a caption along the top (sources often carry text at the bottom). The size follows aspect_ratio/resolution when given,
 * else the source's.
 */
import sharp from 'sharp';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { hsl, toHex } from '../media/colour.js';
import { imageFrameSize, parseAspectRatio, type FrameSize } from '../media/frame-size.js';
import { captionOverlays } from '../media/image-caption.js';
import { fetchInputToFile, invalidInput, requireImage } from '../media/input-media.js';
import { createRandom, seedFrom } from '../media/seeded-random.js';
import { finishedAsset } from './finished-asset.js';

export const imageEdit: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const imageUrl = readString(input, 'image_url');
    if (!imageUrl) throw invalidInput('image_url is required');
    const prompt = readString(input, 'prompt') ?? '';
    const source = await fetchInputToFile(ctx, imageUrl, 'image_url');
    const decoded = await requireImage(source);
    const size = targetSize(decoded, readString(input, 'aspect_ratio'), readString(input, 'resolution'));

    const random = createRandom(seedFrom(prompt));
    const tint = hsl(random.range(0, 360), 0.7, 0.5);
    const grade = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">` +
        `<rect width="100%" height="100%" fill="${toHex(tint)}" fill-opacity="0.55"/></svg>`,
    );
    const graded = await sharp(source.path)
      .rotate()
      .resize(size.width, size.height, { fit: 'cover' })
      .modulate({ saturation: 1.2, hue: Math.round(random.range(-40, 40)) })
      .composite([{ input: grade, blend: 'soft-light' }])
      .png()
      .toBuffer();
    const png = prompt
      ? await sharp(graded).composite(await captionOverlays(prompt, size.width, size.height, 'top')).png().toBuffer()
      : graded;
    const hosted = await ctx.blobs.put(png, 'image/png', 'png');
    return {
      done: finishedAsset('image', route, {
        image_url: hosted.url,
      }),
    };
  },
};

function targetSize(source: FrameSize, aspectRatio: string | undefined, resolution: string | undefined): FrameSize {
  if (!aspectRatio && !resolution) return source;
  const aspect = parseAspectRatio(aspectRatio) ?? { width: source.width, height: source.height };
  return imageFrameSize(aspect, resolution);
}
