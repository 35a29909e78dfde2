/**
 * The location's collision proxy: a floor slab under the viewer and four walls enclosing the
 * splat sphere, as separate named nodes (tagged `collider` in extras) so engines can pick them up.
 */
import { Document } from '@gltf-transform/core';
import { addMesh, linearFactor } from './gltf-assembly.js';
import { ALL_FACES, boxMesh, type Vec3 } from './box-mesh.js';

export interface RoomBounds {
  /** Half the room's width and depth. */
  halfExtent: number;
  floorY: number;
  wallHeight: number;
}

const THICKNESS = 0.2;

export function buildRoomCollider(bounds: RoomBounds): Document {
  const document = new Document();
  document.createBuffer();
  const material = document.createMaterial('collider').setBaseColorFactor(linearFactor({ r: 128, g: 128, b: 128 }, 1));
  const span = bounds.halfExtent * 2;
  const wallCentreY = bounds.floorY + bounds.wallHeight / 2;
  const boxes: Array<{ name: string; size: Vec3; centre: Vec3 }> = [
    { name: 'floor', size: [span, THICKNESS, span], centre: [0, bounds.floorY - THICKNESS / 2, 0] },
    { name: 'wall_north', size: [span, bounds.wallHeight, THICKNESS], centre: [0, wallCentreY, -bounds.halfExtent] },
    { name: 'wall_south', size: [span, bounds.wallHeight, THICKNESS], centre: [0, wallCentreY, bounds.halfExtent] },
    { name: 'wall_east', size: [THICKNESS, bounds.wallHeight, span], centre: [bounds.halfExtent, wallCentreY, 0] },
    { name: 'wall_west', size: [THICKNESS, bounds.wallHeight, span], centre: [-bounds.halfExtent, wallCentreY, 0] },
  ];
  const scene = document.createScene('collider');
  for (const box of boxes) {
    const mesh = addMesh(document, box.name, [{ mesh: boxMesh(box.size, box.centre, ALL_FACES), material }]);
    scene.addChild(document.createNode(box.name).setMesh(mesh).setExtras({ collider: true }));
  }
  document.getRoot().setDefaultScene(scene);
  return document;
}
