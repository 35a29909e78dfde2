/**
 * A 2:1 equirectangular panorama of the location: sky, sun, wrapping mountain ridges and ground
 * seeded by the description, tinted by the source images, which are placed around the horizon at
 * their azimuths (they are views of one space from a shared centre). The left and right edges
 * meet seamlessly, as a 360° panorama must.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { hsl, mix, shade, toHex, type Rgb } from '../media/colour.js';
import { createRandom, type SeededRandom } from '../media/seeded-random.js';

export const PANORAMA_WIDTH = 2048;
export const PANORAMA_HEIGHT = 1024;

export interface PanoramaView {
  /** A decoded source image on disk. */
  imagePath: string;
  /** Degrees clockwise from straight ahead (the panorama's centre). */
  azimuth: number;
}

export interface PanoramaRequest {
  seed: number;
  views: PanoramaView[];
  /** Average colour of the views, when there are any. */
  tint?: Rgb;
}

export async function renderPanorama(request: PanoramaRequest): Promise<Buffer> {
  const random = createRandom(request.seed);
  const hue = random.range(0, 360);
  const tint = request.tint;
  const skyTop = blend(hsl(hue + 200, 0.5, 0.25), tint, 0.2);
  const skyHorizon = blend(hsl(hue + 180, 0.45, 0.75), tint, 0.35);
  const ground = blend(hsl(hue + 60, 0.35, 0.35), tint, 0.5);
  const horizon = PANORAMA_HEIGHT / 2;
  const ridges = [0, 1, 2].map((layer) =>
    ridgePath(random, horizon - 40 + layer * 25, 90 - layer * 25, toHex(shade(mix(skyHorizon, ground, 0.4 + layer * 0.2), 0.9 - layer * 0.1))),
  );
  const sunX = random.range(0, PANORAMA_WIDTH);
  const sunY = random.range(horizon * 0.3, horizon * 0.75);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PANORAMA_WIDTH}" height="${PANORAMA_HEIGHT}">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${toHex(skyTop)}"/>` +
    `<stop offset="1" stop-color="${toHex(skyHorizon)}"/></linearGradient>` +
    `<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${toHex(ground)}"/>` +
    `<stop offset="1" stop-color="${toHex(shade(ground, 0.45))}"/></linearGradient>` +
    `<radialGradient id="sun"><stop offset="0" stop-color="#fff8e0"/><stop offset="0.35" stop-color="#ffe9a8" stop-opacity="0.9"/>` +
    `<stop offset="1" stop-color="#ffe9a8" stop-opacity="0"/></radialGradient></defs>` +
    `<rect width="100%" height="${horizon}" fill="url(#sky)"/>` +
    `<circle cx="${sunX.toFixed(0)}" cy="${sunY.toFixed(0)}" r="90" fill="url(#sun)"/>` +
    `<rect y="${horizon}" width="100%" height="${horizon}" fill="url(#ground)"/>${ridges.join('')}</svg>`;
  const overlays = (await Promise.all(request.views.map((view) => viewOverlays(view)))).flat();
  return sharp(Buffer.from(svg)).composite(overlays).png().toBuffer();
}

/** A ridge made of whole sine cycles across the width, so it wraps around without a seam. */
function ridgePath(random: SeededRandom, baseline: number, amplitude: number, colour: string): string {
  const waves = [2, 3, 5, 9].map((cycles) => ({ cycles, phase: random.range(0, Math.PI * 2), weight: random.range(0.3, 1) / Math.sqrt(cycles) }));
  const points: string[] = [];
  for (let step = 0; step <= 128; step += 1) {
    const x = (PANORAMA_WIDTH * step) / 128;
    const offset = waves.reduce((sum, wave) => sum + wave.weight * Math.sin((x / PANORAMA_WIDTH) * Math.PI * 2 * wave.cycles + wave.phase), 0);
    points.push(`${x.toFixed(1)},${(baseline - Math.abs(offset) * amplitude).toFixed(1)}`);
  }
  return `<path d="M0,${PANORAMA_HEIGHT / 2 + 2} L${points.join(' L')} L${PANORAMA_WIDTH},${PANORAMA_HEIGHT / 2 + 2} Z" fill="${colour}"/>`;
}

/** A view spans about 70° of the panorama around its azimuth; one crossing the seam is drawn twice. */
async function viewOverlays(view: PanoramaView): Promise<OverlayOptions[]> {
  const width = Math.round((PANORAMA_WIDTH * 70) / 360);
  const { data, info } = await sharp(view.imagePath)
    .rotate()
    .resize(width, Math.round(PANORAMA_HEIGHT * 0.4), { fit: 'inside' })
    .removeAlpha()
    .ensureAlpha(0.92)
    .png()
    .toBuffer({ resolveWithObject: true });
  const centreX = ((((view.azimuth / 360 + 0.5) % 1) + 1) % 1) * PANORAMA_WIDTH;
  const left = Math.round(centreX - info.width / 2);
  const top = Math.round(PANORAMA_HEIGHT / 2 - info.height / 2);
  const placements = [left];
  if (left < 0) placements.push(left + PANORAMA_WIDTH);
  if (left + info.width > PANORAMA_WIDTH) placements.push(left - PANORAMA_WIDTH);
  return Promise.all(placements.map(async (x) => ({ input: await cropToCanvas(data, info.width, info.height, x), left: Math.max(0, x), top })));
}

/** sharp composites must lie inside the canvas, so the part of a view beyond an edge is cut off. */
async function cropToCanvas(png: Buffer, width: number, height: number, x: number): Promise<Buffer> {
  const from = Math.max(0, -x);
  const to = Math.min(width, PANORAMA_WIDTH - x);
  if (from === 0 && to === width) return png;
  return sharp(png).extract({ left: from, top: 0, width: Math.max(1, to - from), height }).png().toBuffer();
}

function blend(colour: Rgb, tint: Rgb | undefined, amount: number): Rgb {
  return tint ? mix(colour, tint, amount) : colour;
}
