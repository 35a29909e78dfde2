/**
 * Builds an Advanced SubStation Alpha (ASS) script, which libass renders with exact styling:
 * font, size, colours and outline width map one to one onto an ASS style.
 */
import { parseHexColour, type Rgba } from './colour.js';
import { dejavuFaceFor } from './font.js';
import type { FrameSize } from './frame-size.js';

export interface SubtitleStyle {
  font?: string;
  fontSize?: number;
  color?: string;
  strokeColor?: string;
  strokeWidth?: number;
}

export interface SubtitleCue {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 255 };
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 255 };

export function buildAssScript(cues: SubtitleCue[], style: SubtitleStyle, size: FrameSize): string {
  // Sizes are pixels of the video itself (PlayRes = frame size), kept within a readable range.
  const fontSize = Math.round(clamp(style.fontSize ?? size.height * 0.06, 8, size.height / 4));
  const outline = clamp(style.strokeWidth ?? Math.max(1, fontSize / 16), 0, fontSize / 2);
  const face = dejavuFaceFor(style.font);
  const primary = assColour(parseHexColour(style.color) ?? WHITE);
  const outlineColour = assColour(parseHexColour(style.strokeColor) ?? BLACK);
  const marginV = Math.round(size.height * 0.06);
  const header = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${size.width}`,
    `PlayResY: ${size.height}`,
    'ScaledBorderAndShadow: yes',
    'WrapStyle: 0',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Caption,${face.family},${fontSize},${primary},${primary},${outlineColour},&H80000000,${face.bold ? -1 : 0},0,0,0,100,100,0,0,1,${round(outline)},0,2,20,20,${marginV},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  const events = cues.map(
    (cue) => `Dialogue: 0,${timestamp(cue.startSeconds)},${timestamp(cue.endSeconds)},Caption,,0,0,0,,${escapeText(cue.text)}`,
  );
  return [...header, ...events, ''].join('\n');
}

/** ASS colours are &HAABBGGRR with alpha inverted (00 opaque). */
function assColour({ r, g, b, a }: Rgba): string {
  const hex = (value: number): string => Math.round(value).toString(16).padStart(2, '0').toUpperCase();
  return `&H${hex(255 - a)}${hex(b)}${hex(g)}${hex(r)}`;
}

function timestamp(seconds: number): string {
  const centiseconds = Math.max(0, Math.round(seconds * 100));
  const hours = Math.floor(centiseconds / 360000);
  const minutes = Math.floor((centiseconds % 360000) / 6000);
  const secs = Math.floor((centiseconds % 6000) / 100);
  const cs = centiseconds % 100;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(secs).padStart(2, '0')}.${String(cs).padStart(2, '0')}`;
}

/** Braces open override tags and a newline would end the event; neither may come from a file name. */
function escapeText(text: string): string {
  return text.replace(/[{}]/g, '').replace(/\r?\n/g, '\\N');
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
