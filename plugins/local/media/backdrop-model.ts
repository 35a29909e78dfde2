/**
 * The backdrop of a picture, guessed from its left and right edges: each row's colour interpolated between
 * the row's two edge colours. That describes the usual backdrops of a product shot or a person filmed for a
 * character (plain, or graded top to bottom or side to side), and tells the subject from its backdrop by
 * colour difference: character clips are keyed with it, and 3D reliefs raise what differs from it.
 */

/** Pixels of each edge averaged into the row's edge colour. */
const EDGE_PIXELS = 4;

export interface Backdrop {
  /** RGB, like the picture. */
  plate: Buffer;
  /** Rows whose edge colour jumps from the row above (a busy edge, not a backdrop). */
  jumpyRows: number;
}

/** `rgb`: raw 3-channel pixels of a `width` × `height` picture. */
export function edgeBackdrop(rgb: Buffer, width: number, height: number, rowJump: number): Backdrop {
  const edge = Math.min(EDGE_PIXELS, Math.max(1, Math.floor(width / 4)));
  const pixel = (x: number, y: number, channel: number): number => rgb[(y * width + x) * 3 + channel];
  const edges = Array.from({ length: height }, (_, y) => {
    const left = [0, 0, 0];
    const right = [0, 0, 0];
    for (let offset = 0; offset < edge; offset += 1) {
      for (let channel = 0; channel < 3; channel += 1) {
        left[channel] += pixel(offset, y, channel) / edge;
        right[channel] += pixel(width - 1 - offset, y, channel) / edge;
      }
    }
    return { left, right };
  });
  const jumpyRows = edges
    .slice(1)
    .filter((row, index) => meanDifference(row.left, edges[index].left) > rowJump || meanDifference(row.right, edges[index].right) > rowJump).length;
  const plate = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const t = width === 1 ? 0 : x / (width - 1);
      for (let channel = 0; channel < 3; channel += 1) {
        plate[(y * width + x) * 3 + channel] = Math.round(edges[y].left[channel] + (edges[y].right[channel] - edges[y].left[channel]) * t);
      }
    }
  }
  return { plate, jumpyRows };
}

/** Mean absolute difference over the three channels of pixel `index` in two RGB buffers (0..255). */
export function pixelDifference(a: Buffer, b: Buffer, index: number): number {
  const offset = index * 3;
  return (Math.abs(a[offset] - b[offset]) + Math.abs(a[offset + 1] - b[offset + 1]) + Math.abs(a[offset + 2] - b[offset + 2])) / 3;
}

function meanDifference(a: number[], b: number[]): number {
  return (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2])) / 3;
}
