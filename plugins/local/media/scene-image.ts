/**
 * A deterministic "generated" picture of the prompt, and optionally the prompt as a caption. It stands in for a
 * model's image everywhere the local plugin has nothing to start from (image.generate, video scenes).
 *
 * The prompt's cues (prompt-cues.ts) decide what is drawn: the setting lays out the scene (sea, beach, forest,
 * city skyline, desert dunes, snow, mountains, fields, space, or a room), the time of day lights it (night dark
 * with a moon and stars, sunset warm with a low sun), colour words colour the parts they name ("a white wall")
 * or the subject, drawn as a shaded shape in the middle of the picture. The seed only moves things around. A
 * prompt without any cue gets a seeded abstract landscape.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { createRandom, type SeededRandom } from './seeded-random.js';
import { hsl, mix, seededPalette, shade, toHex, type Palette, type Rgb } from './colour.js';
import { captionOverlays } from './image-caption.js';
import { hasCues, partColour, readPromptCues, subjectColours, type PromptCues, type Setting, type TimeOfDay } from './prompt-cues.js';

export interface SceneImageOptions {
  width: number;
  height: number;
  seed: number;
  /** What the picture shows; its cues lay out, light and colour the scene. */
  prompt?: string;
  /** Drawn in a translucent band near the bottom. */
  caption?: string;
  /** Composited over the scene, under the caption (e.g. reference images). */
  layers?: OverlayOptions[];
}

export async function renderSceneImage(options: SceneImageOptions): Promise<Buffer> {
  const random = createRandom(options.seed);
  const cues = readPromptCues(options.prompt);
  const svg = hasCues(cues)
    ? cuedSceneSvg(options.width, options.height, cues, random)
    : abstractSceneSvg(options.width, options.height, seededPalette(random), random);
  const background = await sharp(Buffer.from(svg)).png().toBuffer();
  const overlays = [
    ...(options.layers ?? []),
    ...(options.caption ? await captionOverlays(options.caption, options.width, options.height) : []),
  ];
  return overlays.length === 0 ? background : sharp(background).composite(overlays).png().toBuffer();
}

interface Light {
  skyTop: Rgb;
  skyHorizon: Rgb;
  /** Multiplies every ground colour: night scenes are dark all over. */
  groundLight: number;
  /** Mixed into ground colours (warm at sunset, blue at night). */
  groundTint: Rgb;
  tintAmount: number;
  body: 'sun' | 'moon';
  bodyColour: Rgb;
  /** Height of the sun or moon above the horizon, as a fraction of the sky. */
  bodyHeight: number;
  stars: boolean;
}

const LIGHTS: Record<TimeOfDay, Light> = {
  day: {
    skyTop: { r: 63, g: 127, b: 208 }, skyHorizon: { r: 184, g: 220, b: 245 }, groundLight: 1,
    groundTint: { r: 255, g: 255, b: 255 }, tintAmount: 0, body: 'sun', bodyColour: { r: 255, g: 244, b: 200 }, bodyHeight: 0.7, stars: false,
  },
  sunset: {
    skyTop: { r: 70, g: 45, b: 110 }, skyHorizon: { r: 255, g: 138, b: 61 }, groundLight: 0.8,
    groundTint: { r: 255, g: 120, b: 50 }, tintAmount: 0.25, body: 'sun', bodyColour: { r: 255, g: 170, b: 70 }, bodyHeight: 0.12, stars: false,
  },
  dawn: {
    skyTop: { r: 125, g: 155, b: 214 }, skyHorizon: { r: 255, g: 201, b: 168 }, groundLight: 0.9,
    groundTint: { r: 255, g: 190, b: 170 }, tintAmount: 0.15, body: 'sun', bodyColour: { r: 255, g: 228, b: 190 }, bodyHeight: 0.15, stars: false,
  },
  night: {
    skyTop: { r: 5, g: 8, b: 24 }, skyHorizon: { r: 29, g: 42, b: 82 }, groundLight: 0.32,
    groundTint: { r: 40, g: 60, b: 130 }, tintAmount: 0.3, body: 'moon', bodyColour: { r: 240, g: 240, b: 224 }, bodyHeight: 0.65, stars: true,
  },
};

/** Day colours of each setting's ground; a season or a colour word may replace them. */
const GROUND: Record<Setting, Rgb> = {
  field: { r: 90, g: 158, b: 60 },
  forest: { r: 47, g: 93, b: 42 },
  sea: { r: 42, g: 111, b: 176 },
  beach: { r: 232, g: 210, b: 154 },
  desert: { r: 227, g: 178, b: 106 },
  snow: { r: 243, g: 246, b: 250 },
  mountain: { r: 96, g: 130, b: 80 },
  city: { r: 74, g: 74, b: 80 },
  space: { r: 5, g: 5, b: 12 },
  indoor: { r: 168, g: 139, b: 106 },
};

const SEASON_VEGETATION: Record<string, Rgb> = {
  autumn: { r: 200, g: 100, b: 42 },
  spring: { r: 130, g: 190, b: 90 },
  summer: { r: 60, g: 160, b: 50 },
};

/** Fraction of the height where the sky meets the ground. */
const HORIZON = 0.58;
const INDOOR_FLOOR = 0.7;

function cuedSceneSvg(width: number, height: number, cues: PromptCues, random: SeededRandom): string {
  const setting = cues.setting ?? (cues.timeOfDay || cues.season ? 'field' : 'indoor');
  const light = lightFor(cues, setting);
  const unit = Math.min(width, height);
  const lit = (colour: Rgb): string => toHex(shade(mix(colour, light.groundTint, light.tintAmount), light.groundLight));
  const layers: string[] = [];
  const defs: string[] = [];
  const horizonY = height * (setting === 'indoor' ? INDOOR_FLOOR : HORIZON);

  if (setting === 'indoor') {
    const wall = partColour(cues, 'wall') ?? { r: 230, g: 224, b: 214 };
    const floor = partColour(cues, 'floor') ?? GROUND.indoor;
    const wallLight = cues.timeOfDay === 'night' ? 0.45 : cues.timeOfDay === 'sunset' ? 0.85 : 1;
    defs.push(linearGradient('wall', shade(wall, wallLight), shade(wall, wallLight * 0.88)));
    layers.push(`<rect width="100%" height="${horizonY.toFixed(1)}" fill="url(#wall)"/>`);
    layers.push(`<rect y="${horizonY.toFixed(1)}" width="100%" height="${(height - horizonY).toFixed(1)}" fill="${toHex(shade(floor, wallLight))}"/>`);
    layers.push(`<rect y="${(horizonY - unit * 0.01).toFixed(1)}" width="100%" height="${(unit * 0.012).toFixed(1)}" fill="#000" fill-opacity="0.12"/>`);
  } else {
    const sky = partColour(cues, 'sky');
    const skyTop = sky ? shade(sky, light.groundLight * 0.75) : light.skyTop;
    const skyHorizon = sky ? mix(shade(sky, light.groundLight), { r: 255, g: 255, b: 255 }, 0.25) : light.skyHorizon;
    defs.push(linearGradient('sky', skyTop, skyHorizon));
    const skyBottom = setting === 'space' ? height : horizonY;
    layers.push(`<rect width="100%" height="${skyBottom.toFixed(1)}" fill="url(#sky)"/>`);
    if (light.stars || setting === 'space') layers.push(stars(width, skyBottom, random, setting === 'space' ? 160 : 70));
    if (setting !== 'space') layers.push(skyBody(width, horizonY, unit, light, random));
    layers.push(...groundLayers(setting, width, height, horizonY, unit, cues, lit, light, random));
  }

  const subjects = subjectColours(cues).slice(0, 3);
  subjects.forEach((colour, index) => layers.push(subjectShape(width, height, unit, horizonY, index, subjects.length, colour, cues.timeOfDay, random)));

  const body = layers.join('');
  const filtered = cues.monochrome ? `<filter id="mono"><feColorMatrix type="saturate" values="0"/></filter>` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs.join('')}${filtered}</defs>` +
    (cues.monochrome ? `<g filter="url(#mono)">${body}</g>` : body) +
    `</svg>`
  );
}

/** The time of day, or day light for an outdoor scene that names none. */
function lightFor(cues: PromptCues, setting: Setting): Light {
  const light = LIGHTS[cues.timeOfDay ?? 'day'];
  if (setting === 'space') return { ...LIGHTS.night, stars: true };
  if (setting === 'snow' && !cues.timeOfDay) return { ...light, skyTop: { r: 150, g: 180, b: 215 }, skyHorizon: { r: 225, g: 234, b: 244 } };
  if (setting === 'desert' && !cues.timeOfDay) return { ...light, skyHorizon: { r: 240, g: 226, b: 200 } };
  return light;
}

function groundLayers(
  setting: Setting,
  width: number,
  height: number,
  horizonY: number,
  unit: number,
  cues: PromptCues,
  lit: (colour: Rgb) => string,
  light: Light,
  random: SeededRandom,
): string[] {
  const vegetation = (cues.season && SEASON_VEGETATION[cues.season]) ?? undefined;
  const ground = partColour(cues, 'ground') ?? (cues.season === 'winter' ? GROUND.snow : vegetation) ?? GROUND[setting];
  const water = partColour(cues, 'water') ?? GROUND.sea;
  const layers: string[] = [];
  const fill = (y: number, colour: string): string => `<rect y="${y.toFixed(1)}" width="100%" height="${(height - y).toFixed(1)}" fill="${colour}"/>`;
  switch (setting) {
    case 'sea':
    case 'beach': {
      layers.push(fill(horizonY, lit(water)));
      for (let line = 0; line < 7; line += 1) {
        const y = horizonY + (height - horizonY) * ((line + 0.5) / 7) ** 1.4;
        layers.push(`<path d="${wavePath(width, y, unit * 0.004 * (line + 1), random)}" stroke="${lit(mix(water, { r: 255, g: 255, b: 255 }, 0.35))}" stroke-width="${(unit * 0.0015 * (line + 1)).toFixed(1)}" fill="none" stroke-opacity="0.35"/>`);
      }
      if (light.body === 'sun' && light.bodyHeight < 0.3) {
        layers.push(`<rect x="${(width * 0.42).toFixed(1)}" y="${horizonY.toFixed(1)}" width="${(width * 0.16).toFixed(1)}" height="${((height - horizonY) * 0.6).toFixed(1)}" fill="${toHex(light.bodyColour)}" fill-opacity="0.35"/>`);
      }
      if (setting === 'beach') {
        const sandTop = horizonY + (height - horizonY) * 0.45;
        layers.push(`<path d="${hillPath(width, height, sandTop, unit * 0.03, random)}" fill="${lit(partColour(cues, 'ground') ?? GROUND.beach)}"/>`);
      }
      break;
    }
    case 'forest': {
      layers.push(fill(horizonY, lit(ground)));
      for (let row = 0; row < 3; row += 1) {
        const baseY = horizonY + unit * 0.03 * row;
        const treeColour = lit(shade(vegetation ?? { r: 40, g: 95, b: 45 }, 0.7 + row * 0.15));
        const count = Math.ceil(width / (unit * 0.09)) + 2;
        for (let index = 0; index < count; index += 1) {
          const x = (index + random.range(-0.3, 0.3) + (row % 2) * 0.5) * (width / (count - 1));
          const treeHeight = unit * random.range(0.2, 0.34) * (1 - row * 0.12);
          const half = treeHeight * 0.28;
          layers.push(`<polygon points="${x.toFixed(1)},${(baseY - treeHeight).toFixed(1)} ${(x - half).toFixed(1)},${baseY.toFixed(1)} ${(x + half).toFixed(1)},${baseY.toFixed(1)}" fill="${treeColour}"/>`);
        }
      }
      break;
    }
    case 'city': {
      layers.push(fill(horizonY, lit(ground)));
      let x = -random.range(0, unit * 0.05);
      while (x < width) {
        const buildingWidth = unit * random.range(0.08, 0.16);
        const buildingHeight = unit * random.range(0.18, 0.5);
        const top = horizonY - buildingHeight;
        const tone = random.range(0.35, 0.6) * 255;
        layers.push(`<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${buildingWidth.toFixed(1)}" height="${buildingHeight.toFixed(1)}" fill="${lit({ r: tone, g: tone, b: tone + 12 })}"/>`);
        layers.push(windows(x, top, buildingWidth, buildingHeight, unit, light.stars, random));
        x += buildingWidth + unit * random.range(0.004, 0.02);
      }
      break;
    }
    case 'desert': {
      layers.push(fill(horizonY, lit(ground)));
      [0, 1, 2].forEach((layer) => {
        const y = horizonY + (height - horizonY) * (0.1 + layer * 0.3);
        layers.push(`<path d="${hillPath(width, height, y, unit * 0.05, random)}" fill="${lit(shade(ground, 1 - layer * 0.08))}"/>`);
      });
      break;
    }
    case 'snow': {
      layers.push(fill(horizonY, lit(ground)));
      layers.push(`<path d="${hillPath(width, height, horizonY + (height - horizonY) * 0.3, unit * 0.04, random)}" fill="${lit(mix(ground, { r: 200, g: 215, b: 240 }, 0.3))}"/>`);
      layers.push(flakes(width, height, unit, random));
      break;
    }
    case 'mountain': {
      const rock = { r: 107, g: 122, b: 144 };
      for (let index = 0; index < 5; index += 1) {
        const peakX = width * random.range(-0.05, 1.05);
        const peakHeight = unit * random.range(0.25, 0.45);
        const half = peakHeight * random.range(0.9, 1.4);
        const top = horizonY - peakHeight;
        layers.push(`<polygon points="${peakX.toFixed(1)},${top.toFixed(1)} ${(peakX - half).toFixed(1)},${horizonY.toFixed(1)} ${(peakX + half).toFixed(1)},${horizonY.toFixed(1)}" fill="${lit(shade(rock, random.range(0.8, 1)))}"/>`);
        const cap = peakHeight * 0.25;
        const capHalf = (half * cap) / peakHeight;
        layers.push(`<polygon points="${peakX.toFixed(1)},${top.toFixed(1)} ${(peakX - capHalf).toFixed(1)},${(top + cap).toFixed(1)} ${(peakX + capHalf).toFixed(1)},${(top + cap).toFixed(1)}" fill="${lit({ r: 245, g: 247, b: 250 })}"/>`);
      }
      layers.push(fill(horizonY, lit(ground)));
      break;
    }
    case 'space': {
      const planet = partColour(cues, 'ground') ?? hsl(random.range(0, 360), 0.5, 0.5);
      const radius = unit * random.range(0.14, 0.22);
      layers.push(`<circle cx="${(width * random.range(0.15, 0.35)).toFixed(1)}" cy="${(height * random.range(0.2, 0.4)).toFixed(1)}" r="${radius.toFixed(1)}" fill="${toHex(planet)}"/>`);
      break;
    }
    default: {
      layers.push(fill(horizonY, lit(shade(ground, 0.85))));
      [0, 1].forEach((layer) => {
        const y = horizonY + (height - horizonY) * (0.05 + layer * 0.35);
        layers.push(`<path d="${hillPath(width, height, y, unit * random.range(0.03, 0.07), random)}" fill="${lit(shade(ground, 0.92 + layer * 0.08))}"/>`);
      });
    }
  }
  return layers;
}

function skyBody(width: number, horizonY: number, unit: number, light: Light, random: SeededRandom): string {
  const x = width * random.range(0.15, 0.85);
  const y = horizonY * (1 - light.bodyHeight);
  const radius = unit * (light.body === 'moon' ? 0.05 : light.bodyHeight < 0.3 ? 0.09 : 0.06);
  const glow = `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(radius * 2.4).toFixed(1)}" fill="${toHex(light.bodyColour)}" fill-opacity="0.18"/>`;
  return `${glow}<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${radius.toFixed(1)}" fill="${toHex(light.bodyColour)}"/>`;
}

function stars(width: number, bottom: number, random: SeededRandom, count: number): string {
  return Array.from({ length: count }, () => {
    const radius = random.range(0.6, 1.8).toFixed(1);
    return `<circle cx="${random.range(0, width).toFixed(1)}" cy="${random.range(0, bottom * 0.95).toFixed(1)}" r="${radius}" fill="#ffffff" fill-opacity="${random.range(0.5, 1).toFixed(2)}"/>`;
  }).join('');
}

function flakes(width: number, height: number, unit: number, random: SeededRandom): string {
  return Array.from({ length: 90 }, () => {
    const radius = (unit * random.range(0.002, 0.006)).toFixed(1);
    return `<circle cx="${random.range(0, width).toFixed(1)}" cy="${random.range(0, height).toFixed(1)}" r="${radius}" fill="#ffffff" fill-opacity="0.85"/>`;
  }).join('');
}

/** Lit windows at night, pale reflections by day. */
function windows(x: number, top: number, width: number, height: number, unit: number, night: boolean, random: SeededRandom): string {
  const size = unit * 0.014;
  const gap = size * 1.1;
  const cells: string[] = [];
  for (let y = top + gap; y < top + height - size - gap; y += size + gap) {
    for (let column = x + gap; column < x + width - size - gap / 2; column += size + gap) {
      const on = night ? random.next() < 0.55 : random.next() < 0.8;
      if (!on) continue;
      cells.push(`<rect x="${column.toFixed(1)}" y="${y.toFixed(1)}" width="${size.toFixed(1)}" height="${size.toFixed(1)}" fill="${night ? '#ffd37a' : '#c9dcef'}" fill-opacity="${night ? 0.9 : 0.55}"/>`);
    }
  }
  return cells.join('');
}

/**
 * The subject a colour word names ("a red bicycle"), as a shaded rounded shape standing on the ground in
 * the middle of the picture: the local renderer cannot draw a bicycle, but the picture shows its colour
 * where the subject would be.
 */
function subjectShape(
  width: number,
  height: number,
  unit: number,
  horizonY: number,
  index: number,
  count: number,
  colour: Rgb,
  time: TimeOfDay | undefined,
  random: SeededRandom,
): string {
  const light = time === 'night' ? 0.55 : 1;
  const centreX = width * ((index + 1) / (count + 1)) + unit * random.range(-0.03, 0.03);
  const radiusX = Math.min(width / (count + 1), unit * 0.62) * 0.42;
  const radiusY = unit * 0.24;
  const baseY = Math.min(height * 0.9, horizonY + unit * 0.12);
  const centreY = baseY - radiusY;
  const id = `subject${index}`;
  const gradient =
    `<radialGradient id="${id}" cx="0.38" cy="0.32" r="0.75"><stop offset="0" stop-color="${toHex(shade(mix(colour, { r: 255, g: 255, b: 255 }, 0.2), light))}"/>` +
    `<stop offset="0.6" stop-color="${toHex(shade(colour, light))}"/><stop offset="1" stop-color="${toHex(shade(colour, 0.75 * light))}"/></radialGradient>`;
  return (
    `<defs>${gradient}</defs>` +
    `<ellipse cx="${centreX.toFixed(1)}" cy="${baseY.toFixed(1)}" rx="${(radiusX * 1.05).toFixed(1)}" ry="${(unit * 0.025).toFixed(1)}" fill="#000" fill-opacity="0.22"/>` +
    `<rect x="${(centreX - radiusX).toFixed(1)}" y="${(centreY - radiusY).toFixed(1)}" width="${(radiusX * 2).toFixed(1)}" height="${(radiusY * 2).toFixed(1)}" rx="${(radiusX * 0.45).toFixed(1)}" fill="url(#${id})"/>`
  );
}

function linearGradient(id: string, top: Rgb, bottom: Rgb): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${toHex(top)}"/><stop offset="1" stop-color="${toHex(bottom)}"/></linearGradient>`;
}

function wavePath(width: number, y: number, amplitude: number, random: SeededRandom): string {
  const phase = random.range(0, Math.PI * 2);
  const cycles = random.range(6, 10);
  const points: string[] = [];
  for (let step = 0; step <= 48; step += 1) {
    const x = (width * step) / 48;
    points.push(`${x.toFixed(1)},${(y + amplitude * Math.sin((x / width) * Math.PI * 2 * cycles + phase)).toFixed(1)}`);
  }
  return `M${points.join(' L')}`;
}

/** The look of a prompt without cues: a seeded gradient with soft shapes and rolling hills. */
function abstractSceneSvg(width: number, height: number, palette: Palette, random: SeededRandom): string {
  const unit = Math.min(width, height);
  const blobs = Array.from({ length: 6 }, (_, index) => {
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
