/** The prompt drawn onto a picture: wrapped text on a translucent band near the bottom edge. */
import sharp, { type OverlayOptions } from 'sharp';
import { wrapText } from './font.js';
import { renderTextLayer, type TextLayer } from './text-layer.js';

export async function captionOverlays(
  caption: string,
  width: number,
  height: number,
  position: 'top' | 'bottom' = 'bottom',
): Promise<OverlayOptions[]> {
  const fontSize = Math.max(10, Math.round(Math.min(width, height) * 0.045));
  const textWidth = Math.round(width * 0.86);
  const lines = wrapText(caption, Math.max(8, Math.floor(textWidth / (fontSize * 0.56))), 3);
  const text = await fitWithin(await renderTextLayer(lines.join('\n'), { width: textWidth, fontSizePx: fontSize }), width, height);
  const padding = Math.round(fontSize * 0.6);
  const bandHeight = Math.min(height, text.height + padding * 2);
  const edgeMargin = Math.round(height * 0.05);
  const bandTop = position === 'top' ? Math.min(edgeMargin, height - bandHeight) : Math.max(0, height - bandHeight - edgeMargin);
  const band = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${bandHeight}">` +
      `<rect width="100%" height="100%" fill="#000000" fill-opacity="0.38"/></svg>`,
  );
  return [
    { input: band, top: bandTop, left: 0 },
    {
      input: text.png,
      top: bandTop + Math.max(0, Math.round((bandHeight - text.height) / 2)),
      left: Math.max(0, Math.round((width - text.width) / 2)),
    },
  ];
}

/** sharp refuses overlays larger than the base image, which tiny target sizes can produce. */
async function fitWithin(layer: TextLayer, width: number, height: number): Promise<TextLayer> {
  if (layer.width <= width && layer.height <= height) return layer;
  const { data, info } = await sharp(layer.png)
    .resize(width, height, { fit: 'inside' })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}
