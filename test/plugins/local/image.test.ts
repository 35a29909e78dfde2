import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { createLocalHarness, HOSTED_URL, LOCAL_TASK_ID, type LocalHarness } from './local-harness.js';

describe('local plugin: image operations', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  async function pngSize(url: string): Promise<{ format?: string; width?: number; height?: number }> {
    const { format, width, height } = await sharp(harness.pathOf(url)).metadata();
    return { format, width, height };
  }

  describe('image.generate', () => {
    it('renders a 1K PNG at the requested aspect ratio and reports it in the vendor shape', async () => {
      const output = await harness.run('image.generate', { prompt: 'A red fox in the snow at dawn', aspect_ratio: '16:9' });
      const url = String(output.image_url);
      expect(url).to.match(HOSTED_URL);
      expect(output.task_id).to.match(LOCAL_TASK_ID);
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'image',
        status: 'succeeded',
        image_url: url,
        image_urls: [url],
        provider_image_urls: [url],
        provider_image_count: 1,
        provider: 'local',
        model: 'local-image',
        aspect_ratio: '16:9',
      });
      expect(await pngSize(url)).to.deep.equal({ format: 'png', width: 1024, height: 576 });
    });

    it('defaults to a square 1K image and honours 2K and lower-case resolutions', async () => {
      const square = await harness.run('image.generate', { prompt: 'A lighthouse' });
      expect(square.aspect_ratio).to.equal('1:1');
      expect(await pngSize(String(square.image_url))).to.deep.include({ width: 1024, height: 1024 });
      const portrait = await harness.run('image.generate', { prompt: 'A lighthouse', aspect_ratio: '9:16', resolution: '2k' });
      expect(await pngSize(String(portrait.image_url))).to.deep.include({ width: 1152, height: 2048 });
    });

    it('is deterministic for the same prompt and differs for another one', async () => {
      const bytes = async (prompt: string): Promise<Buffer> =>
        readFile(harness.pathOf(String((await harness.run('image.generate', { prompt, aspect_ratio: '4:3' })).image_url)));
      const first = await bytes('Two boats on a calm lake');
      expect((await bytes('Two boats on a calm lake')).equals(first)).to.equal(true);
      expect((await bytes('A desert at noon')).equals(first)).to.equal(false);
    });

    it('blends the first reference image into the picture', async () => {
      const plain = await harness.run('image.generate', { prompt: 'A garden', aspect_ratio: '4:3' });
      const guided = await harness.run('image.generate', {
        prompt: 'A garden',
        aspect_ratio: '4:3',
        reference_image_urls: [harness.urls.image],
        reference_prompt_balance: 0.8,
      });
      expect(await pngSize(String(guided.image_url))).to.deep.include({ width: 1024, height: 768 });
      const difference = await meanAbsoluteDifference(harness.pathOf(String(plain.image_url)), harness.pathOf(String(guided.image_url)));
      expect(difference).to.be.greaterThan(5);
    });

    it('fails permanently when a reference image cannot be fetched', async () => {
      const error = await harness
        .run('image.generate', { prompt: 'x', reference_image_urls: ['http://elsewhere.example/missing.png'] })
        .then(() => undefined, (caught: unknown) => caught);
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).retryable).to.equal(false);
      expect((error as ProviderError).message).to.include('reference_image_urls[0]');
    });
  });

  describe('image.edit', () => {
    it('edits the source visibly and keeps its size when none is asked for', async () => {
      const output = await harness.run('image.edit', { prompt: 'make it autumn', image_url: harness.urls.image });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'image',
        status: 'succeeded',
        image_url: output.image_url,
        provider: 'local',
        model: 'local-image',
      });
      expect(await pngSize(String(output.image_url))).to.deep.equal({ format: 'png', width: 320, height: 240 });
      expect(await meanAbsoluteDifference(harness.fixtures.imagePng, harness.pathOf(String(output.image_url)))).to.be.greaterThan(5);
    });

    it('resizes to aspect_ratio and resolution when given', async () => {
      const output = await harness.run('image.edit', {
        prompt: 'night',
        image_url: harness.urls.portrait,
        aspect_ratio: '16:9',
        resolution: '2K',
      });
      expect(await pngSize(String(output.image_url))).to.deep.include({ width: 2048, height: 1152 });
    });

    it('rejects a source that is not an image', async () => {
      const error = await harness
        .run('image.edit', { prompt: 'x', image_url: harness.urls.notMedia })
        .then(() => undefined, (caught: unknown) => caught);
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).retryable).to.equal(false);
    });
  });
});

/** Mean per-channel difference (0..255) after scaling both images to 64×64. */
async function meanAbsoluteDifference(pathA: string, pathB: string): Promise<number> {
  const pixels = (path: string): Promise<Buffer> => sharp(path).resize(64, 64, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [a, b] = await Promise.all([pixels(pathA), pixels(pathB)]);
  let total = 0;
  for (let index = 0; index < a.length; index += 1) total += Math.abs(a[index] - b[index]);
  return total / a.length;
}
