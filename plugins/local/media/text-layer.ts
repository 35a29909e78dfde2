/**
 * Renders text to a transparent PNG with sharp's pango text input and the bundled DejaVu font, for
 * compositing onto images.
 */
import sharp from 'sharp';
import { SANS_FONT_FILE } from './font.js';

export interface TextLayer {
  png: Buffer;
  width: number;
  height: number;
}

export interface TextLayerOptions {
  /** Wrap width in pixels. */
  width: number;
  fontSizePx: number;
  colour?: string;
  align?: 'left' | 'centre';
}

export async function renderTextLayer(text: string, options: TextLayerOptions): Promise<TextLayer> {
  const colour = options.colour ?? '#ffffff';
  const markup = `<span foreground="${colour}">${escapeMarkup(text)}</span>`;
  const { data, info } = await sharp({
    text: {
      text: markup,
      fontfile: SANS_FONT_FILE,
      font: `DejaVu Sans ${Math.max(6, Math.round(options.fontSizePx))}`,
      width: Math.max(16, Math.round(options.width)),
      align: options.align === 'left' ? 'left' : 'centre',
      wrap: 'word-char',
      rgba: true,
      // At 72 dpi a point is a pixel, so the size above is in pixels.
      dpi: 72,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
