/** Colour parsing and generation shared by images, subtitles and 3D materials. */
import type { SeededRandom } from './seeded-random.js';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface Rgba extends Rgb {
  /** 0..255, 255 opaque. */
  a: number;
}

/** `#rgb`, `#rrggbb` or `#rrggbbaa` (the leading # is optional). */
export function parseHexColour(value: string | undefined): Rgba | undefined {
  if (!value) return undefined;
  const hex = value.trim().replace(/^#/, '');
  if (!/^[0-9a-f]+$/i.test(hex)) return undefined;
  const expanded = hex.length === 3 || hex.length === 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
  if (expanded.length !== 6 && expanded.length !== 8) return undefined;
  const channel = (offset: number): number => Number.parseInt(expanded.slice(offset, offset + 2), 16);
  return { r: channel(0), g: channel(2), b: channel(4), a: expanded.length === 8 ? channel(6) : 255 };
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((channel) => Math.round(clamp(channel, 0, 255)).toString(16).padStart(2, '0')).join('')}`;
}

/** Hue in degrees, saturation and lightness in 0..1. */
export function hsl(hue: number, saturation: number, lightness: number): Rgb {
  const h = (((hue % 360) + 360) % 360) / 360;
  const q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation;
  const p = 2 * lightness - q;
  const component = (shift: number): number => {
    let t = h + shift;
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return { r: component(1 / 3) * 255, g: component(0) * 255, b: component(-1 / 3) * 255 };
}

export function mix(a: Rgb, b: Rgb, amount: number): Rgb {
  return { r: a.r + (b.r - a.r) * amount, g: a.g + (b.g - a.g) * amount, b: a.b + (b.b - a.b) * amount };
}

export function shade(colour: Rgb, factor: number): Rgb {
  return { r: colour.r * factor, g: colour.g * factor, b: colour.b * factor };
}

export interface Palette {
  /** Two gradient stops for the background. */
  backgroundFrom: Rgb;
  backgroundTo: Rgb;
  accents: Rgb[];
}

/** An analogous palette around a seeded hue: pleasant without any taste of our own. */
export function seededPalette(random: SeededRandom): Palette {
  const hue = random.range(0, 360);
  const spread = random.range(25, 70);
  return {
    backgroundFrom: hsl(hue, random.range(0.45, 0.7), random.range(0.18, 0.3)),
    backgroundTo: hsl(hue + spread, random.range(0.5, 0.8), random.range(0.5, 0.62)),
    accents: [0, 1, 2, 3].map((index) =>
      hsl(hue + spread * (index - 1) + random.range(-15, 15), random.range(0.5, 0.85), random.range(0.55, 0.75)),
    ),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
