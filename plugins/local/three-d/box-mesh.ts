/**
 * Axis-aligned boxes as indexed triangle meshes with normals and UVs, face by face, so callers can
 * give faces different materials (a textured front, plain sides). UVs follow glTF (origin top-left):
 * a texture on the front or back face reads upright and unmirrored from outside.
 */
export type Vec3 = [number, number, number];

export type BoxFace = 'front' | 'back' | 'left' | 'right' | 'top' | 'bottom';

export const ALL_FACES: readonly BoxFace[] = ['front', 'back', 'left', 'right', 'top', 'bottom'];

export interface MeshData {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: Uint16Array;
}

interface FaceFrame {
  normal: Vec3;
  /** Texture u grows along this axis, v along the other. */
  uAxis: Vec3;
  vAxis: Vec3;
}

const FACE_FRAMES: Record<BoxFace, FaceFrame> = {
  front: { normal: [0, 0, 1], uAxis: [1, 0, 0], vAxis: [0, -1, 0] },
  back: { normal: [0, 0, -1], uAxis: [-1, 0, 0], vAxis: [0, -1, 0] },
  right: { normal: [1, 0, 0], uAxis: [0, 0, -1], vAxis: [0, -1, 0] },
  left: { normal: [-1, 0, 0], uAxis: [0, 0, 1], vAxis: [0, -1, 0] },
  top: { normal: [0, 1, 0], uAxis: [1, 0, 0], vAxis: [0, 0, 1] },
  bottom: { normal: [0, -1, 0], uAxis: [1, 0, 0], vAxis: [0, 0, -1] },
};

const CORNERS: Array<[number, number]> = [
  [-1, -1],
  [1, -1],
  [1, 1],
  [-1, 1],
];

/** The chosen faces of a box of `size` centred on `centre`. */
export function boxMesh(size: Vec3, centre: Vec3, faces: readonly BoxFace[]): MeshData {
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  for (const face of faces) {
    const { normal, uAxis, vAxis } = FACE_FRAMES[face];
    const base = positions.length / 3;
    const halfNormal = extent(size, normal) / 2;
    const halfU = extent(size, uAxis) / 2;
    const halfV = extent(size, vAxis) / 2;
    for (const [su, sv] of CORNERS) {
      for (let axis = 0; axis < 3; axis += 1) {
        positions.push(centre[axis] + normal[axis] * halfNormal + uAxis[axis] * su * halfU + vAxis[axis] * sv * halfV);
      }
      normals.push(...normal);
      uvs.push((su + 1) / 2, (sv + 1) / 2);
    }
    // Counter-clockwise seen from outside, whichever way the face's texture axes turn.
    const facesOutward = dot(cross(uAxis, vAxis), normal) > 0;
    indices.push(
      ...(facesOutward ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2]).map((corner) => base + corner),
    );
  }
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    uvs: new Float32Array(uvs),
    indices: new Uint16Array(indices),
  };
}

function extent(size: Vec3, axis: Vec3): number {
  return Math.abs(axis[0]) * size[0] + Math.abs(axis[1]) * size[1] + Math.abs(axis[2]) * size[2];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
