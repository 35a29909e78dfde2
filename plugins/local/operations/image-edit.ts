/**
 * image.edit: the source image graded as the prompt's cues ask (night, sunset, a season, a colour word,
 * black and white: see media/colour-grade.ts) with the prompt drawn as a caption along the top (sources often
 * carry text at the bottom). A change the cues do not cover (adding or removing things) is not made: the
 * caption is then the only mark of the edit. The size follows aspect_ratio/resolution when given, else the
 * source's.
 */
import sharp from 'sharp';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { gradeFromPrompt } from '../media/colour-grade.js';
import { imageFrameSize, parseAspectRatio, type FrameSize } from '../media/frame-size.js';
import { captionOverlays } from '../media/image-caption.js';
import { fetchInputToFile, invalidInput, requireImage } from '../media/input-media.js';
import { finishedAsset } from './finished-asset.js';

export const imageEdit: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const imageUrl = readString(input, 'image_url');
    if (!imageUrl) throw invalidInput('image_url is required');
    const prompt = readString(input, 'prompt') ?? '';
    const source = await fetchInputToFile(ctx, imageUrl, 'image_url');
    const decoded = await requireImage(source);
    const size = targetSize(decoded, readString(input, 'aspect_ratio'), readString(input, 'resolution'));

    const grade = gradeFromPrompt(prompt);
    let image = sharp(source.path).rotate().resize(size.width, size.height, { fit: 'cover' }).removeAlpha();
    if (grade) image = image.modulate({ saturation: grade.saturation }).linear(grade.gain, grade.offset);
    const graded = await image.png().toBuffer();
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
