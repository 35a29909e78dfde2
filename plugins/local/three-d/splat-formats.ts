/**
 * Encoders for the two common Gaussian splat files.
 *
 * `.splat` (antimatter15/splat): 32 bytes per splat, little-endian: position 3×float32, scale
 * 3×float32 (linear), colour RGBA 4×uint8, rotation 4×uint8 as (w, x, y, z) mapped from -1..1 to
 * 0..255. Files in the wild come from 3DGS training in the COLMAP frame (y down, z forward), which
 * viewers of the format assume, so y and z are flipped from our RUB frame.
 *
 * `.spz` (Niantic, version 2): gzip of a 16-byte header (magic 0x5053474e "NGSP", version, point
 * count, SH degree, fractional bits, flags, reserved) followed by attribute blocks in the order the
 * reference serializer writes them (nianticlabs/spz, load-spz.cc serializePackedGaussians):
 * positions (3×24-bit signed fixed point), alphas (uint8), colours (3×uint8, SH DC scaled by 0.15
 * around 0.5), scales (3×uint8, (ln(scale) + 10) × 16), rotations (3×uint8 quaternion xyz with
 * w ≥ 0, (v + 1) × 127.5). SPZ's own frame is RUB, ours.
 */
import { runOffThread } from '../off-thread/off-thread.js';
import type { GaussianCloud } from './gaussian-cloud.js';

const SPLAT_BYTES_PER_POINT = 32;
const SPZ_MAGIC = 0x5053474e;
const SPZ_VERSION = 2;
const SPZ_FRACTIONAL_BITS = 12;
/** SH band 0 constant: colour = 0.5 + SH_C0 × dc. */
const SH_C0 = 0.28209479177387814;
const SPZ_COLOUR_SCALE = 0.15;

export function encodeSplat(cloud: GaussianCloud): Buffer {
  const buffer = Buffer.alloc(cloud.count * SPLAT_BYTES_PER_POINT);
  for (let index = 0; index < cloud.count; index += 1) {
    const offset = index * SPLAT_BYTES_PER_POINT;
    const [x, y, z] = triple(cloud.positions, index);
    buffer.writeFloatLE(x, offset);
    buffer.writeFloatLE(-y, offset + 4);
    buffer.writeFloatLE(-z, offset + 8);
    const [sx, sy, sz] = triple(cloud.scales, index);
    buffer.writeFloatLE(sx, offset + 12);
    buffer.writeFloatLE(sy, offset + 16);
    buffer.writeFloatLE(sz, offset + 20);
    buffer[offset + 24] = cloud.colours[index * 3];
    buffer[offset + 25] = cloud.colours[index * 3 + 1];
    buffer[offset + 26] = cloud.colours[index * 3 + 2];
    buffer[offset + 27] = byte(cloud.alphas[index] * 255);
    // Flipping y and z conjugates each rotation by a 180° turn about x: (w, x, y, z) -> (w, x, -y, -z).
    const [qx, qy, qz, qw] = quaternion(cloud.rotations, index);
    const turned = [qw, qx, -qy, -qz];
    for (let component = 0; component < 4; component += 1) buffer[offset + 28 + component] = byte(turned[component] * 128 + 128);
  }
  return buffer;
}

/** Compressed in a worker thread: gzip of a few MB would otherwise hold the event loop. */
export async function encodeSpz(cloud: GaussianCloud, signal: AbortSignal): Promise<Buffer> {
  const count = cloud.count;
  const header = Buffer.alloc(16);
  header.writeUInt32LE(SPZ_MAGIC, 0);
  header.writeUInt32LE(SPZ_VERSION, 4);
  header.writeUInt32LE(count, 8);
  header[12] = 0; // SH degree: colour only
  header[13] = SPZ_FRACTIONAL_BITS;
  header[14] = 0; // flags: not trained with antialiasing
  header[15] = 0;

  const positions = Buffer.alloc(count * 9);
  const alphas = Buffer.alloc(count);
  const colours = Buffer.alloc(count * 3);
  const scales = Buffer.alloc(count * 3);
  const rotations = Buffer.alloc(count * 3);
  const fixedPointScale = 1 << SPZ_FRACTIONAL_BITS;
  for (let index = 0; index < count; index += 1) {
    for (let axis = 0; axis < 3; axis += 1) {
      const fixed = Math.round(cloud.positions[index * 3 + axis] * fixedPointScale) & 0xffffff;
      const offset = (index * 3 + axis) * 3;
      positions[offset] = fixed & 0xff;
      positions[offset + 1] = (fixed >> 8) & 0xff;
      positions[offset + 2] = (fixed >> 16) & 0xff;
      const dc = (cloud.colours[index * 3 + axis] / 255 - 0.5) / SH_C0;
      colours[index * 3 + axis] = byte((dc * SPZ_COLOUR_SCALE + 0.5) * 255);
      scales[index * 3 + axis] = byte((Math.log(Math.max(1e-6, cloud.scales[index * 3 + axis])) + 10) * 16);
    }
    alphas[index] = byte(cloud.alphas[index] * 255);
    const [qx, qy, qz, qw] = quaternion(cloud.rotations, index);
    const sign = qw < 0 ? -1 : 1;
    rotations[index * 3] = byte((sign * qx + 1) * 127.5);
    rotations[index * 3 + 1] = byte((sign * qy + 1) * 127.5);
    rotations[index * 3 + 2] = byte((sign * qz + 1) * 127.5);
  }
  const compressed = await runOffThread('gzip', Buffer.concat([header, positions, alphas, colours, scales, rotations]), signal);
  return Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength);
}

function triple(values: Float32Array, index: number): [number, number, number] {
  return [values[index * 3], values[index * 3 + 1], values[index * 3 + 2]];
}

function quaternion(values: Float32Array, index: number): [number, number, number, number] {
  const [x, y, z, w] = values.subarray(index * 4, index * 4 + 4);
  const length = Math.hypot(x, y, z, w) || 1;
  return [x / length, y / length, z / length, w / length];
}

function byte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}
