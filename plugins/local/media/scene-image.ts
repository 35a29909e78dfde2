/**
 * A deterministic "generated" picture: a seeded gradient with soft shapes and rolling hills, and
 * optionally the prompt as a caption. It stands in for a model's image everywhere the local plugin
 * has nothing to start from (image.generate, video scenes, 3D previews).
 */
import sharp, { type OverlayOptions } from 'sharp';
import { createRandom, type SeededRandom } from './seeded-random.js';
import { seededPalette, toHex, type Palette } from './colour.js';
import { captionOverlays } from './image-caption.js';

export interface SceneImageOptions {
  width: number;
  height: number;
  seed: number;
  /** Drawn in a translucent band near the bottom. */
  caption?: string;
  /** Composited over the scene, under the caption (e.g. reference images). */
  layers?: OverlayOptions[];
}

export async function renderSceneImage(options: SceneImageOptions): Promise<Buffer> {
  const random = createRandom(options.seed);
  const palette = seededPalette(random);
  const background = await sharp(Buffer.from(sceneSvg(options.width, options.height, palette, random))).png().toBuffer();
  const overlays = [
    ...(options.layers ?? []),
    ...(options.caption ? await captionOverlays(options.caption, options.width, options.height) : []),
  ];
  return overlays.length === 0 ? background : sharp(background).composite(overlays).png().toBuffer();
}

function sceneSvg(width: number, height: number, palette: Palette, random: SeededRandom): string {
  const unit = Math.min(width, height);
  const blobs = Array.from({ length: 6 }, (_, index) => {
    const colour = toHex(palette.accents[index % palette.accents.length]);
    const cx = random.range(0, width).toFixed(1);
    const cy = random.range(0, height * 0.7).toFixed(1);
    const radius = random.range(unit * 0.08, unit * 0.32).toFixed(1);
    return `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="url(#blob${index % 4})" />`;
  }).join('');
  const blobGradients = palette.accents
    .map(
      (accent, index) =>
        `<radialGradient id="blob${index}"><stop offset="0" stop-color="${toHex(accent)}" stop-opacity="0.85"/>` +
        `<stop offset="1" stop-color="${toHex(accent)}" stop-opacity="0"/></radialGradient>`,
    )
    .join('');
  const hills = [0.72, 0.82].map((level, index) => {
    const path = hillPath(width, height, height * level, unit * random.range(0.04, 0.1), random);
    const colour = toHex(palette.accents[(index + 2) % palette.accents.length]);
    return `<path d="${path}" fill="${colour}" fill-opacity="${index === 0 ? 0.45 : 0.7}"/>`;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="${random.range(0.2, 1).toFixed(2)}" y2="1">` +
    `<stop offset="0" stop-color="${toHex(palette.backgroundFrom)}"/><stop offset="1" stop-color="${toHex(palette.backgroundTo)}"/>` +
    `</linearGradient>${blobGradients}</defs>` +
    `<rect width="100%" height="100%" fill="url(#sky)"/>${blobs}${hills.join('')}</svg>`
  );
}

/** A smooth horizon line from a few seeded sine waves, closed along the bottom edge. */
function hillPath(width: number, height: number, baseline: number, amplitude: number, random: SeededRandom): string {
  const waves = [1, 2, 3].map((frequency) => ({
    frequency: frequency * random.range(0.6, 1.4),
    phase: random.range(0, Math.PI * 2),
    weight: 1 / frequency,
  }));
  const steps = 48;
  const points: string[] = [];
  for (let step = 0; step <= steps; step += 1) {
    const x = (width * step) / steps;
    const y =
      baseline +
      amplitude * waves.reduce((sum, wave) => sum + wave.weight * Math.sin((x / width) * Math.PI * 2 * wave.frequency + wave.phase), 0);
    points.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  }
  return `M0,${height} L${points.join(' L')} L${width},${height} Z`;
}
