/**
 * A PNG preview of the object model, drawn in cabinet (oblique) projection: the front face shows the
 * texture shaded by the relief (lit from the upper left, so what stands out casts its slopes into light and
 * shade), top and side faces are shaded base colour, over a soft floor shadow.
 */
import sharp, { type OverlayOptions } from 'sharp';
import { shade, toHex, mix, type Rgb } from '../media/colour.js';
import type { Vec3 } from './box-mesh.js';
import type { HeightField } from './relief-mesh.js';

const PREVIEW_SIZE = 512;
/** Receding edges drawn at 40° and half length, as cabinet projection does. */
const DEPTH_ANGLE = (40 * Math.PI) / 180;

export async function renderModelPreview(size: Vec3, baseColour: Rgb, texture: Buffer, relief: HeightField): Promise<Buffer> {
  const [width, height, depth] = size;
  const depthX = (depth / 2) * Math.cos(DEPTH_ANGLE);
  const depthY = (depth / 2) * Math.sin(DEPTH_ANGLE);
  const scale = (PREVIEW_SIZE * 0.7) / Math.max(width + depthX, height + depthY);
  const frontWidth = Math.max(1, Math.round(width * scale));
  const frontHeight = Math.max(1, Math.round(height * scale));
  const offsetX = Math.round(depthX * scale);
  const offsetY = Math.round(depthY * scale);
  const left = Math.round((PREVIEW_SIZE - frontWidth - offsetX) / 2);
  const top = Math.round((PREVIEW_SIZE - frontHeight + offsetY) / 2);
  const right = left + frontWidth;
  const bottom = top + frontHeight;
  const topFace = `${left},${top} ${right},${top} ${right + offsetX},${top - offsetY} ${left + offsetX},${top - offsetY}`;
  const sideFace = `${right},${top} ${right + offsetX},${top - offsetY} ${right + offsetX},${bottom - offsetY} ${right},${bottom}`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_SIZE}" height="${PREVIEW_SIZE}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f4f5f7"/>` +
    `<stop offset="1" stop-color="#d5d9e0"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#bg)"/>` +
    `<ellipse cx="${(left + right + offsetX) / 2}" cy="${bottom + 6}" rx="${(frontWidth + offsetX) * 0.6}" ry="${Math.max(6, offsetY * 0.8)}" fill="#000" fill-opacity="0.18"/>` +
    `<polygon points="${topFace}" fill="${toHex(mix(baseColour, { r: 255, g: 255, b: 255 }, 0.3))}"/>` +
    `<polygon points="${sideFace}" fill="${toHex(shade(baseColour, 0.65))}"/>` +
    `<rect x="${left}" y="${top}" width="${frontWidth}" height="${frontHeight}" fill="${toHex(baseColour)}"/></svg>`;
  const shading = await sharp(reliefShading(relief, size), { raw: { width: relief.columns + 1, height: relief.rows + 1, channels: 1 } })
    .resize(frontWidth, frontHeight, { fit: 'fill' })
    .toColourspace('srgb')
    .png()
    .toBuffer();
  const front = await sharp(texture)
    .resize(frontWidth, frontHeight, { fit: 'fill' })
    .composite([{ input: shading, blend: 'multiply' }])
    .png()
    .toBuffer();
  const overlays: OverlayOptions[] = [{ input: front, left, top }];
  return sharp(Buffer.from(svg)).composite(overlays).png().toBuffer();
}

/** Light from the upper left and in front; a flat face is lit fully, slopes away from the light darker. */
const LIGHT: Vec3 = normalise([-0.6, 0.6, 1]);
const MIN_LIGHT = 0.35;

/** Grey levels per vertex (255 = as lit as a flat face), for a multiply blend over the texture. */
function reliefShading(relief: HeightField, size: Vec3): Buffer {
  const { columns, rows, heights } = relief;
  const across = columns + 1;
  const [width, height, depth] = size;
  const out = Buffer.alloc(across * (rows + 1));
  for (let row = 0; row <= rows; row += 1) {
    for (let column = 0; column <= columns; column += 1) {
      const dzdx = ((heights[row * across + Math.min(columns, column + 1)] - heights[row * across + Math.max(0, column - 1)]) * depth) / ((2 * width) / columns);
      const dzdy = ((heights[Math.max(0, row - 1) * across + column] - heights[Math.min(rows, row + 1) * across + column]) * depth) / ((2 * height) / rows);
      const normal = normalise([-dzdx, -dzdy, 1]);
      const lit = (normal[0] * LIGHT[0] + normal[1] * LIGHT[1] + normal[2] * LIGHT[2]) / LIGHT[2];
      out[row * across + column] = Math.round(255 * Math.min(1, Math.max(MIN_LIGHT, lit)));
    }
  }
  return out;
}

function normalise(vector: Vec3): Vec3 {
  const length = Math.hypot(...vector) || 1;
  return [vector[0] / length, vector[1] / length, vector[2] / length];
}
