/**
 * The DejaVu fonts from the `dejavu-fonts-ttf` package. Every text renderer (sharp/pango, ffmpeg
 * drawtext, libass) is pointed at these files explicitly, so output does not depend on the fonts
 * (or the fontconfig setup) of the machine. DejaVu has no CJK glyphs: such text renders as boxes.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const SANS_FONT_FILE = join(FONT_DIR, 'DejaVuSans.ttf');
export const SANS_BOLD_FONT_FILE = join(FONT_DIR, 'DejaVuSans-Bold.ttf');

export interface DejaVuFace {
  /** Family name as libass and pango know it. */
  family: string;
  bold: boolean;
  file: string;
}

/**
 * Maps a requested font name (`Arial Black`, `Georgia`, `Courier New`) to the closest DejaVu face.
 * Only DejaVu is bundled, so honouring the request means honouring its kind and weight.
 */
export function dejavuFaceFor(requested: string | undefined): DejaVuFace {
  const name = (requested ?? '').toLowerCase();
  const bold = /bold|black|heavy|impact|extra ?bold|semi ?bold/.test(name);
  if (/mono|courier|code|consol|menlo/.test(name)) {
    return { family: 'DejaVu Sans Mono', bold, file: join(FONT_DIR, bold ? 'DejaVuSansMono-Bold.ttf' : 'DejaVuSansMono.ttf') };
  }
  if (/serif|times|georgia|garamond|roman|playfair|merriweather/.test(name) && !/sans/.test(name)) {
    return { family: 'DejaVu Serif', bold, file: join(FONT_DIR, bold ? 'DejaVuSerif-Bold.ttf' : 'DejaVuSerif.ttf') };
  }
  return { family: 'DejaVu Sans', bold, file: bold ? SANS_BOLD_FONT_FILE : SANS_FONT_FILE };
}

/**
 * Breaks text into at most `maxLines` lines of about `maxChars` characters (words kept whole when
 * they fit), ending with an ellipsis when the text was cut. Text without spaces (CJK) is cut by
 * characters.
 */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').flatMap((word) => chunk(word, maxChars));
  const lines: string[] = [];
  let current = '';
  let cut = false;
  for (const word of words) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if ([...candidate].length <= maxChars) {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = word;
    if (lines.length === maxLines) {
      cut = true;
      break;
    }
  }
  if (!cut && current !== '') lines.push(current);
  if (cut) {
    const last = [...lines[maxLines - 1]];
    lines[maxLines - 1] = `${last.slice(0, Math.max(1, maxChars - 1)).join('')}…`;
  }
  return lines;
}

function chunk(word: string, size: number): string[] {
  const characters = [...word];
  if (characters.length <= size) return [word];
  const pieces: string[] = [];
  for (let index = 0; index < characters.length; index += size) pieces.push(characters.slice(index, index + size).join(''));
  return pieces;
}
