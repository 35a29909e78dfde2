import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { createLocalHarness, type LocalHarness } from './local-harness.js';

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
        model: 'local-3d-location',
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
