/**
 * A relief (a heightfield) from a source image: the image's subject, told from its backdrop by colour
 * (media/backdrop-model.ts) or by transparency, stands out of a back plate, brighter parts of it nearer, and
 * the backdrop stays flat; the image textures the front. With the back plate and the four sides it is a
 * closed solid. Frame: x right, y up from the ground (y = 0), z towards the viewer; the front faces +z.
 */
import { edgeBackdrop, pixelDifference } from '../media/backdrop-model.js';
import type { MeshData, Vec3 } from './box-mesh.js';

export interface HeightField {
  /** Grid cells across and down; the vertices are one more each way. */
  columns: number;
  rows: number;
  /** 0..1 per vertex, row-major from the top-left. */
  heights: Float32Array;
}

export interface ReliefMesh {
  front: MeshData;
  /** Back plate and sides, one primitive (untextured). */
  shell: MeshData;
}

/** Colour difference from the backdrop (0..255) below which a pixel is backdrop, and above which fully subject. */
const SUBJECT_FROM = 8;
const SUBJECT_FULL = 60;
/** A low luminance relief everywhere, so that even a picture without a distinct subject has depth. */
const LUMINANCE_SHARE = 0.25;
const SMOOTHING_PASSES = 2;
/** Far side of the solid, behind the relief's base plane, as a share of the relief depth. */
const BACK_OFFSET = 0.08;

/**
 * `rgba`: raw pixels of the source scaled to (columns + 1) × (rows + 1), one per vertex. Heights are
 * smoothed a little, so edges slope instead of stepping.
 */
export function heightFieldFromImage(rgba: Buffer, columns: number, rows: number): HeightField {
  const width = columns + 1;
  const height = rows + 1;
  const count = width * height;
  const rgb = Buffer.alloc(count * 3);
  for (let index = 0; index < count; index += 1) rgb.set(rgba.subarray(index * 4, index * 4 + 3), index * 3);
  const { plate } = edgeBackdrop(rgb, width, height, Number.POSITIVE_INFINITY);
  let heights: Float32Array = new Float32Array(count);
  for (let index = 0; index < count; index += 1) {
    const alpha = rgba[index * 4 + 3] / 255;
    const subject = smoothstep(SUBJECT_FROM, SUBJECT_FULL, pixelDifference(rgb, plate, index));
    const luminance = (0.2126 * rgb[index * 3] + 0.7152 * rgb[index * 3 + 1] + 0.0722 * rgb[index * 3 + 2]) / 255;
    heights[index] = alpha * ((1 - LUMINANCE_SHARE) * subject * (0.7 + 0.3 * luminance) + LUMINANCE_SHARE * luminance);
  }
  for (let pass = 0; pass < SMOOTHING_PASSES; pass += 1) heights = blur(heights, width, height);
  return { columns, rows, heights };
}

/** The solid: a front heightfield of `size` (width, height, relief depth) standing on y = 0, and its shell. */
export function reliefMesh(field: HeightField, size: Vec3): ReliefMesh {
  const [width, height, depth] = size;
  const { columns, rows, heights } = field;
  const across = columns + 1;
  const back = -depth * BACK_OFFSET;
  const point = (column: number, row: number): Vec3 => [
    (column / columns - 0.5) * width,
    (1 - row / rows) * height,
    heights[row * across + column] * depth,
  ];

  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  const cellWidth = width / columns;
  const cellHeight = height / rows;
  for (let row = 0; row <= rows; row += 1) {
    for (let column = 0; column <= columns; column += 1) {
      positions.push(...point(column, row));
      // Central differences of z over x and y give the surface normal (-dz/dx, -dz/dy, 1).
      const left = heights[row * across + Math.max(0, column - 1)];
      const right = heights[row * across + Math.min(columns, column + 1)];
      const above = heights[Math.max(0, row - 1) * across + column];
      const below = heights[Math.min(rows, row + 1) * across + column];
      const spanX = cellWidth * (Math.min(columns, column + 1) - Math.max(0, column - 1));
      const spanY = cellHeight * (Math.min(rows, row + 1) - Math.max(0, row - 1));
      // y grows upwards while rows grow downwards: "above" is the larger y.
      normals.push(...normalise([(-(right - left) * depth) / spanX, (-(above - below) * depth) / spanY, 1]));
      uvs.push(column / columns, row / rows);
    }
  }
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const topLeft = row * across + column;
      const bottomLeft = topLeft + across;
      // Counter-clockwise seen from +z (rows run downwards).
      indices.push(topLeft, bottomLeft, topLeft + 1, topLeft + 1, bottomLeft, bottomLeft + 1);
    }
  }
  const front = meshData(positions, normals, uvs, indices);

  const shell = new ShellBuilder();
  shell.quad([-width / 2, height, back], [width / 2, height, back], [width / 2, 0, back], [-width / 2, 0, back], [0, 0, -1]);
  // Each side joins the front's rim to the back plate, one strip per rim segment.
  const rim = (from: [number, number], to: [number, number], steps: number, outward: Vec3): void => {
    for (let step = 0; step < steps; step += 1) {
      const at = (fraction: number): Vec3 => point(Math.round(from[0] + (to[0] - from[0]) * fraction), Math.round(from[1] + (to[1] - from[1]) * fraction));
      const near = at(step / steps);
      const far = at((step + 1) / steps);
      shell.quad(near, far, [far[0], far[1], back], [near[0], near[1], back], outward);
    }
  };
  rim([0, 0], [columns, 0], columns, [0, 1, 0]);
  rim([columns, 0], [columns, rows], rows, [1, 0, 0]);
  rim([columns, rows], [0, rows], columns, [0, -1, 0]);
  rim([0, rows], [0, 0], rows, [-1, 0, 0]);
  return { front, shell: shell.mesh() };
}

/** Flat quads with one normal each, wound to face along it. */
class ShellBuilder {
  private readonly positions: number[] = [];
  private readonly normals: number[] = [];
  private readonly uvs: number[] = [];
  private readonly indices: number[] = [];

  quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3, normal: Vec3): void {
    const base = this.positions.length / 3;
    for (const corner of [a, b, c, d]) {
      this.positions.push(...corner);
      this.normals.push(...normal);
    }
    this.uvs.push(0, 0, 1, 0, 1, 1, 0, 1);
    const facing = dot(cross(subtract(b, a), subtract(c, a)), normal) >= 0;
    this.indices.push(...(facing ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2]).map((corner) => base + corner));
  }

  mesh(): MeshData {
    return meshData(this.positions, this.normals, this.uvs, this.indices);
  }
}

function meshData(positions: number[], normals: number[], uvs: number[], indices: number[]): MeshData {
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    uvs: new Float32Array(uvs),
    indices: new Uint16Array(indices),
  };
}

/** A 3×3 box blur, edges clamped. */
function blur(values: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          sum += values[Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))];
        }
      }
      out[y * width + x] = sum / 9;
    }
  }
  return out;
}

function smoothstep(from: number, to: number, value: number): number {
  const t = Math.min(1, Math.max(0, (value - from) / (to - from)));
  return t * t * (3 - 2 * t);
}

function normalise(vector: Vec3): Vec3 {
  const length = Math.hypot(...vector) || 1;
  return [vector[0] / length, vector[1] / length, vector[2] / length];
}

function subtract(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
