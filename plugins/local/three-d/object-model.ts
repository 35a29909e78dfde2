/**
 * The "image-to-3D" stand-in: a relief built from the source image (three-d/relief-mesh.ts): its subject
 * raised from a back plate, the image as the front's texture, back and sides in the base colour. Sized by
 * the image's proportions, one unit (metre) on its longest side, or 1.8 m tall for a character; it stands
 * on the ground (y = 0) facing +z. A relief is what one picture can honestly give: the far side is flat.
 */
import { Document } from '@gltf-transform/core';
import type { Rgb } from '../media/colour.js';
import { addMesh, linearFactor } from './gltf-assembly.js';
import type { Vec3 } from './box-mesh.js';
import { reliefMesh, type HeightField } from './relief-mesh.js';

export interface ObjectModelRequest {
  name: string;
  assetKind: string;
  /** Width / height of the source image. */
  aspect: number;
  baseColour: Rgb;
  /** PNG on the relief's front. */
  texture: Buffer;
  relief: HeightField;
}

export interface ObjectModel {
  document: Document;
  /** Width, height and relief depth in metres. */
  size: Vec3;
}

const CHARACTER_HEIGHT = 1.8;
/** How far the relief stands out, as a share of the smaller side. */
const RELIEF_DEPTH = 0.3;

export function objectDimensions(assetKind: string, aspect: number): Vec3 {
  if (assetKind === 'character') return [CHARACTER_HEIGHT * aspect, CHARACTER_HEIGHT, CHARACTER_HEIGHT * aspect * RELIEF_DEPTH];
  const width = aspect >= 1 ? 1 : aspect;
  const height = aspect >= 1 ? 1 / aspect : 1;
  return [width, height, Math.min(width, height) * RELIEF_DEPTH];
}

export function buildObjectModel(request: ObjectModelRequest): ObjectModel {
  const document = new Document();
  document.createBuffer();
  const size = objectDimensions(request.assetKind, request.aspect);
  const mesh = reliefMesh(request.relief, size);
  const texture = document.createTexture('source').setImage(new Uint8Array(request.texture)).setMimeType('image/png');
  const front = document.createMaterial('relief').setBaseColorTexture(texture).setRoughnessFactor(0.6).setMetallicFactor(0);
  const shell = document
    .createMaterial('sides')
    .setBaseColorFactor(linearFactor(request.baseColour))
    .setRoughnessFactor(0.75)
    .setMetallicFactor(0);
  const gltfMesh = addMesh(document, request.name, [
    { mesh: mesh.front, material: front },
    { mesh: mesh.shell, material: shell },
  ]);
  const node = document.createNode(request.name).setMesh(gltfMesh).setExtras({ asset_kind: request.assetKind });
  document.createScene('scene').addChild(node);
  document.getRoot().setDefaultScene(document.getRoot().listScenes()[0]);
  return { document, size };
}
