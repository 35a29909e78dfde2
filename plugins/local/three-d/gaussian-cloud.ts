/**
 * Gaussian splats sampled from an equirectangular panorama: one splat per panorama cell, on the
 * ground plane below the horizon and on a sphere around the viewer above it, each coloured by its
 * cell and sized to cover it. Positions are in SPZ's RUB frame (x right, y up, z back), the viewer
 * at the origin at eye height, looking down -z at the panorama's centre.
 */
export interface GaussianCloud {
  count: number;
  /** xyz per splat, metres. */
  positions: Float32Array;
  /** Linear scale (standard deviation) per axis, metres. */
  scales: Float32Array;
  /** RGB per splat, sRGB bytes. */
  colours: Uint8Array;
  /** Opacity per splat, 0..1. */
  alphas: Float32Array;
  /** Unit quaternion per splat, xyzw. */
  rotations: Float32Array;
}

export interface PanoramaSampling {
  /** Raw RGB pixels of the downsampled panorama. */
  rgb: Buffer;
  width: number;
  height: number;
  /** Distance of the surrounding sphere. */
  radius: number;
  /** Height of the ground below the viewer's eyes (negative). */
  floorY: number;
}

export function cloudFromPanorama(sampling: PanoramaSampling): GaussianCloud {
  const { width, height, radius, floorY, rgb } = sampling;
  const count = width * height;
  const cloud: GaussianCloud = {
    count,
    positions: new Float32Array(count * 3),
    scales: new Float32Array(count * 3),
    colours: new Uint8Array(count * 3),
    alphas: new Float32Array(count),
    rotations: new Float32Array(count * 4),
  };
  const cellAngle = (2 * Math.PI) / width;
  for (let row = 0; row < height; row += 1) {
    const latitude = Math.PI / 2 - ((row + 0.5) / height) * Math.PI;
    for (let column = 0; column < width; column += 1) {
      const index = row * width + column;
      const longitude = ((column + 0.5) / width - 0.5) * 2 * Math.PI;
      const direction = [Math.cos(latitude) * Math.sin(longitude), Math.sin(latitude), -Math.cos(latitude) * Math.cos(longitude)];
      // Below the horizon the ray meets the ground (capped at the sphere); above it, the sphere.
      const distance = direction[1] < 0 ? Math.min(radius, floorY / direction[1]) : radius;
      const footprint = Math.max(0.02, distance * cellAngle * Math.max(0.25, Math.cos(latitude)) * 0.6);
      for (let axis = 0; axis < 3; axis += 1) {
        cloud.positions[index * 3 + axis] = direction[axis] * distance;
        cloud.scales[index * 3 + axis] = footprint;
        cloud.colours[index * 3 + axis] = rgb[index * 3 + axis];
      }
      cloud.alphas[index] = 0.95;
      cloud.rotations.set([0, 0, 0, 1], index * 4);
    }
  }
  return cloud;
}
