/**
 * The "image-to-3D" stand-in: a slab shaped by the source image's proportions (characters stand
 * tall), the image on its front and back, the sides in the base colour. Sits on the ground (y = 0),
 * one unit (metre) on its longest side.
 */
import { Document } from '@gltf-transform/core';
import type { Rgb } from '../media/colour.js';
import { addMesh, linearFactor } from './gltf-assembly.js';
import { boxMesh, type Vec3 } from './box-mesh.js';

export interface ObjectModelRequest {
  name: string;
  assetKind: string;
  /** Width / height of the source image; 1 without one. */
  aspect: number;
  baseColour: Rgb;
  /** PNG shown on the front and back faces. */
  texture?: Buffer;
}

export interface ObjectModel {
  document: Document;
  /** Width, height, depth in metres. */
  size: Vec3;
}

export function objectDimensions(assetKind: string, aspect: number): Vec3 {
  if (assetKind === 'character') return [0.6, 1.8, 0.3];
  const width = aspect >= 1 ? 1 : aspect;
  const height = aspect >= 1 ? 1 / aspect : 1;
  return [width, height, Math.max(0.1, Math.min(width, height) * 0.35)];
}

export function buildObjectModel(request: ObjectModelRequest): ObjectModel {
  const document = new Document();
  document.createBuffer();
  const size = objectDimensions(request.assetKind, request.aspect);
  const centre: Vec3 = [0, size[1] / 2, 0];
  const sides = document
    .createMaterial('sides')
    .setBaseColorFactor(linearFactor(request.baseColour))
    .setRoughnessFactor(0.75)
    .setMetallicFactor(0);
  const faces = document.createMaterial('faces').setRoughnessFactor(0.6).setMetallicFactor(0);
  if (request.texture) {
    const texture = document.createTexture('source').setImage(new Uint8Array(request.texture)).setMimeType('image/png');
    faces.setBaseColorTexture(texture);
  } else {
    faces.setBaseColorFactor(linearFactor(request.baseColour));
  }
  const mesh = addMesh(document, request.name, [
    { mesh: boxMesh(size, centre, ['front', 'back']), material: faces },
    { mesh: boxMesh(size, centre, ['left', 'right', 'top', 'bottom']), material: sides },
  ]);
  const node = document.createNode(request.name).setMesh(mesh).setExtras({ asset_kind: request.assetKind });
  document.createScene('scene').addChild(node);
  document.getRoot().setDefaultScene(document.getRoot().listScenes()[0]);
  return { document, size };
}
