import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { createLocalHarness, HOSTED_URL, LOCAL_TASK_ID, type LocalHarness } from './local-harness.js';

/** A GLB container: magic "glTF", version 2, declared length = file length. */
function expectGlbHeader(glb: Buffer): void {
  expect(glb.toString('ascii', 0, 4)).to.equal('glTF');
  expect(glb.readUInt32LE(4)).to.equal(2);
  expect(glb.readUInt32LE(8)).to.equal(glb.length);
}

describe('local plugin: 3D operations', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  describe('three_d.model.generate', () => {
    it('builds a textured GLB shaped like the source image, with a PNG preview and raw artifacts', async () => {
      const output = await harness.run('three_d.model.generate', { source_image_urls: [harness.urls.portrait], name: 'poster' });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: '3d_model',
        status: 'succeeded',
        model_url: output.model_url,
        preview_image_urls: output.preview_image_urls,
        raw_artifact_urls: output.raw_artifact_urls,
        provider: 'local',
        model: 'local-test',
        asset_kind: 'object',
      });
      expect(output.task_id).to.match(LOCAL_TASK_ID);
      expect(output.model_url).to.match(HOSTED_URL);

      const glb = await readFile(harness.pathOf(String(output.model_url)));
      expectGlbHeader(glb);
      const document = await new NodeIO().readBinary(new Uint8Array(glb));
      const [mesh] = document.getRoot().listMeshes();
      expect(mesh.listPrimitives()).to.have.length(2);
      expect(document.getRoot().listTextures()).to.have.length(1);
      const bounds = mesh.listPrimitives()[0].getAttribute('POSITION')!;
      const min = bounds.getMin([]);
      const max = bounds.getMax([]);
      // The portrait source (3:4) gives a model 0.75 wide and 1 tall, standing on y = 0.
      expect(max[0] - min[0]).to.be.closeTo(0.75, 1e-6);
      expect(max[1] - min[1]).to.be.closeTo(1, 1e-6);
      expect(min[1]).to.be.closeTo(0, 1e-6);

      const previews = output.preview_image_urls as string[];
      expect(previews).to.have.length(1);
      expect(await sharp(harness.pathOf(previews[0])).metadata()).to.deep.include({ format: 'png', width: 512, height: 512 });
      const artifacts = output.raw_artifact_urls as string[];
      expect(artifacts).to.have.length(2);
      const gltf = JSON.parse(await readFile(harness.pathOf(artifacts[1]), 'utf8')) as { asset: { version: string }; buffers: Array<{ uri: string }> };
      expect(gltf.asset.version).to.equal('2.0');
      expect(gltf.buffers[0].uri).to.match(/^data:application\/octet-stream;base64,/);
    });

    it('colours the model with texture_base_color and honours asset_kind', async () => {
      const output = await harness.run('three_d.model.generate', {
        name: 'hero',
        asset_kind: 'character',
        texture_base_color: '#ff0000',
      });
      expect(output.asset_kind).to.equal('character');
      const document = await new NodeIO().readBinary(new Uint8Array(await readFile(harness.pathOf(String(output.model_url)))));
      const sides = document.getRoot().listMaterials().find((material) => material.getName() === 'sides')!;
      expect(sides.getBaseColorFactor()).to.deep.equal([1, 0, 0, 1]);
      const positions = document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
      expect(positions.getMax([])[1]).to.be.closeTo(1.8, 1e-6);
      expect(document.getRoot().listTextures()).to.have.length(0);
    });
  });

  describe('three_d.location.generate', () => {
    it('produces a 2:1 panorama, .splat and .spz splats, a collider GLB and previews', async () => {
      const output = await harness.run('three_d.location.generate', {
        name: 'Lake',
        description: 'a quiet alpine lake at dusk',
        source_image_urls: [harness.urls.image, harness.urls.portrait],
        angle_context: [{ image_url: harness.urls.portrait, label: 'behind', azimuth: 180 }],
        quality: 'standard',
      });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: '3d_location',
        status: 'succeeded',
        splat_url: output.splat_url,
        spz_url: output.spz_url,
        pano_url: output.pano_url,
        collider_glb_url: output.collider_glb_url,
        preview_image_urls: output.preview_image_urls,
        provider: 'local',
        model: 'local-test',
      });

      expect(await sharp(harness.pathOf(String(output.pano_url))).metadata()).to.deep.include({ format: 'png', width: 2048, height: 1024 });
      for (const preview of output.preview_image_urls as string[]) {
        expect((await sharp(harness.pathOf(preview)).metadata()).format).to.equal('png');
      }

      const splat = await readFile(harness.pathOf(String(output.splat_url)));
      expect(splat.length % 32).to.equal(0);
      const count = splat.length / 32;
      expect(count).to.be.greaterThan(1000);

      const spz = gunzipSync(await readFile(harness.pathOf(String(output.spz_url))));
      expect(spz.readUInt32LE(0)).to.equal(0x5053474e);
      expect(spz.readUInt32LE(4)).to.equal(2);
      expect(spz.readUInt32LE(8)).to.equal(count);
      expect(spz[12]).to.equal(0);
      expect(spz[13]).to.equal(12);
      // Header, then per splat: 9 position, 1 alpha, 3 colour, 3 scale, 3 rotation bytes.
      expect(spz.length).to.equal(16 + count * 19);

      // Both files describe the same first splat: .splat stores it with y and z flipped.
      const fromSpz = [0, 1, 2].map((axis) => {
        const offset = 16 + axis * 3;
        const raw = spz[offset] | (spz[offset + 1] << 8) | (spz[offset + 2] << 16);
        return ((raw << 8) >> 8) / 4096;
      });
      const fromSplat = [splat.readFloatLE(0), -splat.readFloatLE(4), -splat.readFloatLE(8)];
      fromSpz.forEach((value, axis) => expect(value).to.be.closeTo(fromSplat[axis], 0.001));

      const collider = await readFile(harness.pathOf(String(output.collider_glb_url)));
      expectGlbHeader(collider);
      const document = await new NodeIO().readBinary(new Uint8Array(collider));
      expect(document.getRoot().listNodes().map((node) => node.getName())).to.deep.equal([
        'floor',
        'wall_north',
        'wall_south',
        'wall_east',
        'wall_west',
      ]);
    });

    it('works from a description alone', async () => {
      const output = await harness.run('three_d.location.generate', { description: 'a neon market street at night' });
      expect(await sharp(harness.pathOf(String(output.pano_url))).metadata()).to.deep.include({ width: 2048, height: 1024 });
    });
  });
});
