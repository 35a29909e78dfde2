import sharp from 'sharp';
import type { Rgb } from './colour.js';

/**
 * Mean sRGB colour over one or more image files. Downscaling does the averaging; forcing sRGB makes
 * greyscale and CMYK sources three-channel too.
 */
export async function averageColour(imagePaths: string[]): Promise<Rgb> {
  const means = await Promise.all(
    imagePaths.map(async (imagePath) => {
      const pixels = await sharp(imagePath).removeAlpha().toColourspace('srgb').resize(8, 8, { fit: 'fill' }).raw().toBuffer();
      const total = { r: 0, g: 0, b: 0 };
      for (let offset = 0; offset + 2 < pixels.length; offset += 3) {
        total.r += pixels[offset];
        total.g += pixels[offset + 1];
        total.b += pixels[offset + 2];
      }
      const count = pixels.length / 3;
      return { r: total.r / count, g: total.g / count, b: total.b / count };
    }),
  );
  const sum = means.reduce((total, colour) => ({ r: total.r + colour.r, g: total.g + colour.g, b: total.b + colour.b }), { r: 0, g: 0, b: 0 });
  return { r: sum.r / means.length, g: sum.g / means.length, b: sum.b / means.length };
}
