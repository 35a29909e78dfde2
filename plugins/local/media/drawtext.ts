/**
 * Captions burnt into rendered clips with ffmpeg's drawtext. The text goes through a file
 * (`textfile`, `expansion=none`) so prompts never need filtergraph escaping and `%` stays literal.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { filterValue } from './ffmpeg.js';
import { SANS_FONT_FILE, wrapText } from './font.js';
import type { FrameSize } from './frame-size.js';

let captionCounter = 0;

/** `top` keeps clear of a caption a source clip already carries at the bottom (edits of our own clips). */
export async function captionFilter(scratchDir: string, text: string, size: FrameSize, position: 'top' | 'bottom' = 'bottom'): Promise<string> {
  const fontSize = Math.max(10, Math.round(Math.min(size.width, size.height) * 0.05));
  const maxChars = Math.max(8, Math.floor((size.width * 0.88) / (fontSize * 0.58)));
  const lines = wrapText(text, maxChars, 2);
  captionCounter += 1;
  const path = join(scratchDir, `caption-${captionCounter}.txt`);
  await writeFile(path, lines.join('\n'), 'utf8');
  const border = Math.round(fontSize * 0.45);
  return (
    `drawtext=fontfile='${filterValue(SANS_FONT_FILE)}':textfile='${filterValue(path)}':expansion=none` +
    `:fontsize=${fontSize}:fontcolor=white:line_spacing=${Math.round(fontSize * 0.25)}` +
    `:box=1:boxcolor=black@0.45:boxborderw=${border}` +
    `:x=(w-text_w)/2:y=${position === 'top' ? Math.round(size.height * 0.07) : `h-text_h-${Math.round(size.height * 0.07)}`}`
  );
}
