/**
 * Thin helpers over @gltf-transform/core: meshes from MeshData, sRGB colours to glTF's linear
 * factors, and serialisation to GLB and to a self-contained .gltf (resources inlined as data URIs).
 */
import { Document, Format, NodeIO, type Material, type Mesh } from '@gltf-transform/core';
import type { Rgb } from '../media/colour.js';
import type { MeshData } from './box-mesh.js';

export interface PrimitivePart {
  mesh: MeshData;
  material: Material;
}

export function addMesh(document: Document, name: string, parts: PrimitivePart[]): Mesh {
  const buffer = document.getRoot().listBuffers()[0] ?? document.createBuffer();
  const mesh = document.createMesh(name);
  for (const part of parts) {
    const accessor = (type: 'VEC2' | 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array) =>
      document.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    mesh.addPrimitive(
      document
        .createPrimitive()
        .setAttribute('POSITION', accessor('VEC3', part.mesh.positions))
        .setAttribute('NORMAL', accessor('VEC3', part.mesh.normals))
        .setAttribute('TEXCOORD_0', accessor('VEC2', part.mesh.uvs))
        .setIndices(accessor('SCALAR', part.mesh.indices))
        .setMaterial(part.material),
    );
  }
  return mesh;
}

/** glTF colour factors are linear; colours we pick or measure are sRGB. */
export function linearFactor(colour: Rgb, alpha = 1): [number, number, number, number] {
  const toLinear = (channel: number): number => {
    const value = Math.min(1, Math.max(0, channel / 255));
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return [toLinear(colour.r), toLinear(colour.g), toLinear(colour.b), alpha];
}

export async function writeGlb(document: Document): Promise<Buffer> {
  return Buffer.from(await new NodeIO().writeBinary(document));
}

/** A single-file .gltf: its buffers and images are embedded as base64 data URIs. */
export async function writeEmbeddedGltf(document: Document): Promise<Buffer> {
  const { json, resources } = await new NodeIO().writeJSON(document, { format: Format.GLTF, basename: 'model' });
  const inline = (uri: string | undefined, mimeType: string): string | undefined => {
    const bytes = uri === undefined ? undefined : resources[uri];
    return bytes ? `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}` : uri;
  };
  for (const buffer of json.buffers ?? []) buffer.uri = inline(buffer.uri, 'application/octet-stream');
  for (const image of json.images ?? []) image.uri = inline(image.uri, image.mimeType ?? 'image/png');
  return Buffer.from(JSON.stringify(json), 'utf8');
}
