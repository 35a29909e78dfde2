/**
 * image.generate: a scene laid out, lit and coloured by the prompt's cues (setting, time of day, colour
 * words: see media/scene-image.ts) with the prompt drawn on it, at the size the aspect ratio and resolution
 * ask for; a first reference image is blended in and shown as an inset.
 */
import sharp, { type OverlayOptions } from 'sharp';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readNumber, readString, readStringList } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { imageFrameSize, parseAspectRatio, type FrameSize } from '../media/frame-size.js';
import { fetchInputToFile, invalidInput, requireImage } from '../media/input-media.js';
import { renderSceneImage } from '../media/scene-image.js';
import { seedFrom } from '../media/seeded-random.js';
import { finishedAsset } from './finished-asset.js';

const DEFAULT_ASPECT_RATIO = '1:1';

export const imageGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = readString(input, 'prompt');
    if (!prompt) throw invalidInput('prompt is required');
    const aspectRatio = readString(input, 'aspect_ratio') ?? DEFAULT_ASPECT_RATIO;
    const size = imageFrameSize(parseAspectRatio(aspectRatio) ?? { width: 1, height: 1 }, readString(input, 'resolution'));
    const [referenceUrl] = readStringList(input, 'reference_image_urls');
    const layers = referenceUrl
      ? await referenceLayers(ctx, referenceUrl, size, readNumber(input, 'reference_prompt_balance'))
      : [];
    const png = await renderSceneImage({
      ...size,
      seed: seedFrom(prompt, readString(input, 'style'), readString(input, 'quality')),
      // A style hint ("watercolour, at night") may carry cues of its own.
      prompt: [prompt, readString(input, 'style')].filter(Boolean).join(', '),
      caption: prompt,
      layers,
    });
    const hosted = await ctx.blobs.put(png, 'image/png', 'png');
    return {
      done: finishedAsset('image', route, {
        image_url: hosted.url,
        image_urls: [hosted.url],
        // There is no upstream provider: our hosted copy is the provider's image.
        provider_image_urls: [hosted.url],
        provider_image_count: 1,
        aspect_ratio: aspectRatio,
      }),
    };
  },
};

/**
 * The reference washes over the whole frame (more strongly as the balance leans towards the
 * reference) and sits as a framed inset in the top-right corner.
 */
async function referenceLayers(
  ctx: LocalContext,
  url: string,
  size: FrameSize,
  balance: number | undefined,
): Promise<OverlayOptions[]> {
  const reference = await fetchInputToFile(ctx, url, 'reference_image_urls[0]');
  await requireImage(reference);
  const weight = Math.min(1, Math.max(0, balance ?? 0.5));
  const wash = await sharp(reference.path)
    .rotate()
    .resize(size.width, size.height, { fit: 'cover' })
    .removeAlpha()
    .ensureAlpha(0.15 + 0.5 * weight)
    .png()
    .toBuffer();
  const border = Math.max(2, Math.round(Math.min(size.width, size.height) * 0.008));
  const insetBox = Math.max(8, Math.round(Math.min(size.width, size.height) * 0.28));
  const inset = await sharp(reference.path)
    .rotate()
    .resize(insetBox, insetBox, { fit: 'inside' })
    .extend({ top: border, bottom: border, left: border, right: border, background: '#ffffff' })
    .png()
    .toBuffer({ resolveWithObject: true });
  const margin = Math.round(Math.min(size.width, size.height) * 0.04);
  return [
    { input: wash, top: 0, left: 0 },
    {
      input: inset.data,
      top: Math.min(margin, Math.max(0, size.height - inset.info.height)),
      left: Math.max(0, size.width - inset.info.width - margin),
    },
  ];
}
