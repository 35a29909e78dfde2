/**
 * three_d.model.generate builds a relief from the source image: the tests read the GLB back and measure its
 * vertices (how many, and how high the subject stands above the backdrop).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NodeIO, type Document, type Primitive } from '@gltf-transform/core';
import { expect } from 'chai';
import sharp from 'sharp';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { RENDERERS } from '../../../plugins/local/renderers.js';
import { createLocalHarness, HOSTED_URL, LOCAL_TASK_ID, type LocalHarness } from './local-harness.js';
import { rejectionOf } from './media-expectations.js';
import { imagePixels, meanDifference } from './pixel-probes.js';

/** A red mug on a plain light backdrop, 512×512 (samples/catalogue.json). */
const SAMPLE_MUG = join(process.cwd(), 'samples', 'mug.png');

interface Vertex {
  x: number;
  y: number;
  z: number;
  u: number;
  v: number;
}

function vertices(primitive: Primitive): Vertex[] {
  const positions = primitive.getAttribute('POSITION')!;
  const uvs = primitive.getAttribute('TEXCOORD_0')!;
  return Array.from({ length: positions.getCount() }, (_, index) => {
    const [x, y, z] = positions.getElement(index, [] as number[]);
    const [u, v] = uvs.getElement(index, [] as number[]);
    return { x, y, z, u, v };
  });
}

/** Mean depth of the front's vertices whose texture coordinates fall in a window of the image. */
function meanDepth(front: Vertex[], u: [number, number], v: [number, number]): number {
  const inside = front.filter((vertex) => vertex.u >= u[0] && vertex.u <= u[1] && vertex.v >= v[0] && vertex.v <= v[1]);
  return inside.reduce((sum, vertex) => sum + vertex.z, 0) / inside.length;
}

describe('local plugin: three_d.model.generate', () => {
  let harness: LocalHarness;
  let mugUrl: string;
  before(async () => {
    harness = await createLocalHarness();
    mugUrl = await harness.ctx.upload(SAMPLE_MUG, 'image/png');
  });
  after(() => harness.cleanup());

  async function model(output: Record<string, unknown>): Promise<Document> {
    const glb = await readFile(harness.pathOf(String(output.model_url)));
    // A GLB container: magic "glTF", version 2, declared length = file length.
    expect([glb.toString('ascii', 0, 4), glb.readUInt32LE(4), glb.readUInt32LE(8)]).to.deep.equal(['glTF', 2, glb.length]);
    return new NodeIO().readBinary(new Uint8Array(glb));
  }

  it('raises the subject of the picture out of its backdrop, textured by the picture', async () => {
    const output = await harness.run('three_d.model.generate', { source_image_urls: [mugUrl], name: 'mug' });
    expect(output).to.deep.equal({
      task_id: output.task_id,
      asset_type: '3d_model',
      status: 'succeeded',
      model_url: output.model_url,
      preview_image_urls: output.preview_image_urls,
      raw_artifact_urls: output.raw_artifact_urls,
      asset_kind: 'object',
      provider: 'local',
      model: RENDERERS['three_d.model.generate'],
    });
    expect(output.task_id).to.match(LOCAL_TASK_ID);
    expect(output.model_url).to.match(HOSTED_URL);

    const document = await model(output);
    const [mesh] = document.getRoot().listMeshes();
    const [frontPrimitive, shellPrimitive] = mesh.listPrimitives();
    expect(frontPrimitive.getMaterial()!.getBaseColorTexture(), 'the picture on the front').to.not.equal(null);
    expect(document.getRoot().listTextures()).to.have.length(1);
    const front = vertices(frontPrimitive);
    // A 128 × 128 cell heightfield, not a slab's 8 corners.
    expect(front).to.have.length(129 * 129);
    const depths = front.map((vertex) => vertex.z);
    expect(Math.max(...depths) - Math.min(...depths), 'depth of the relief').to.be.greaterThan(0.12);
    // The mug's body (centre of the picture) stands out; the plain backdrop (corners) stays flat.
    const body = meanDepth(front, [0.35, 0.6], [0.4, 0.7]);
    const corner = meanDepth(front, [0, 0.1], [0, 0.1]);
    expect(body).to.be.greaterThan(0.15);
    expect(corner, 'the backdrop keeps only a faint brightness relief').to.be.lessThan(body / 2);

    // One metre square standing on the ground; back and sides close the solid behind the relief.
    const positions = frontPrimitive.getAttribute('POSITION')!;
    expect([positions.getMin([]), positions.getMax([])].map((corner3) => corner3.slice(0, 2).map((value) => Number(value.toFixed(6))))).to.deep.equal([
      [-0.5, 0],
      [0.5, 1],
    ]);
    const shell = vertices(shellPrimitive);
    expect(Math.min(...shell.map((vertex) => vertex.z))).to.be.lessThan(0);

    const previews = output.preview_image_urls as string[];
    expect(previews).to.have.length(1);
    expect(await sharp(harness.pathOf(previews[0])).metadata()).to.deep.include({ format: 'png', width: 512, height: 512 });
    const artifacts = output.raw_artifact_urls as string[];
    expect(artifacts).to.have.length(2);
    expect(meanDifference(await imagePixels(harness.pathOf(artifacts[0])), await imagePixels(SAMPLE_MUG))).to.be.lessThan(1);
    const gltf = JSON.parse(await readFile(harness.pathOf(artifacts[1]), 'utf8')) as { asset: { version: string }; buffers: Array<{ uri: string }> };
    expect(gltf.asset.version).to.equal('2.0');
    expect(gltf.buffers[0].uri).to.match(/^data:application\/octet-stream;base64,/);
  });

  it('takes the proportions of the picture: a 3:4 portrait is 0.75 m wide and 1 m tall', async () => {
    const output = await harness.run('three_d.model.generate', { source_image_urls: [harness.urls.portrait], name: 'poster' });
    const positions = (await model(output)).getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    const [min, max] = [positions.getMin([]), positions.getMax([])];
    expect(max[0] - min[0]).to.be.closeTo(0.75, 1e-6);
    expect(max[1] - min[1]).to.be.closeTo(1, 1e-6);
    expect(min[1]).to.be.closeTo(0, 1e-6);
  });

  it('stands a character 1.8 m tall and colours back and sides with texture_base_color', async () => {
    const output = await harness.run('three_d.model.generate', {
      source_image_urls: [harness.urls.portrait],
      name: 'hero',
      asset_kind: 'character',
      texture_base_color: '#ff0000',
    });
    expect(output.asset_kind).to.equal('character');
    const document = await model(output);
    const sides = document.getRoot().listMaterials().find((material) => material.getName() === 'sides')!;
    expect(sides.getBaseColorFactor()).to.deep.equal([1, 0, 0, 1]);
    const positions = document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    expect(positions.getMax([])[1]).to.be.closeTo(1.8, 1e-6);
    expect(positions.getMax([])[0] - positions.getMin([])[0]).to.be.closeTo(1.35, 1e-6);
  });

  it('needs a source image', async () => {
    const error = await rejectionOf(harness.run('three_d.model.generate', { name: 'nothing', source_image_urls: [] }));
    expect(error).to.be.instanceOf(ProviderError);
    expect({ retryable: (error as ProviderError).retryable, message: (error as ProviderError).message }).to.deep.equal({
      retryable: false,
      message: 'source_image_urls needs at least one image',
    });
  });
});
