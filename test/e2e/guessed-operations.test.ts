/**
 * The three operations the spec only names, end to end over real HTTP on the embedded default (local provider):
 * submit, poll to `succeeded`, and read what came back, decoded. The extended video is downloaded and measured: it
 * is longer than its source and starts with the source's own frames. A video the gateway made is continued by its
 * hosted URL, which the plugin reads from the store.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { detectLanguage } from '../../plugins/local/language/detect-language.js';
import { download, probeMedia } from '../support/media-probe.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { framePixels, meanDifference } from '../plugins/local/pixel-probes.js';

describe('the operations the spec only names, end to end (local provider)', function () {
  this.timeout(120_000);
  let service: TestService;
  let key: string;
  let dir: string;

  before(async () => {
    service = await startTestService({ worker: { concurrency: 2 } });
    ({ key } = await service.createKey({ credits: 100_000 }));
    dir = await mkdtemp(join(tmpdir(), 'mediagate-guessed-'));
  });
  after(async () => {
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function run(operation: string, input: Record<string, unknown>): Promise<any> {
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation, input } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const done = await pollUntilTerminal(service, key, created.body.id, 110_000);
    expect(done.errorMessage).to.equal(null);
    expect(done.status).to.equal('succeeded');
    return done;
  }

  /** Downloads a hosted file into the test's folder and returns its path. */
  async function fetchToFile(url: string, name: string): Promise<string> {
    expect(url).to.match(new RegExp(`^${service.url}/files/req_`));
    const path = join(dir, name);
    await writeFile(path, (await download(url)).bytes);
    return path;
  }

  it('prompt.enhance.location: 1 credit, a place description in the prompt\'s language from the template', async () => {
    const done = await run('prompt.enhance.location', { prompt: 'un petit port de pêche au lever du soleil', setting: 'exterior' });
    expect(done.billableCredits).to.equal(1);
    expect(done.output).to.include({ status: 'succeeded', operation: 'prompt.enhance.location', provider: 'local', model: 'local-prompt-template' });
    expect(done.output.enhancedPrompt).to.match(/^Un petit port de pêche au lever du soleil, avec une vue depuis un point en plein air/);
    expect(detectLanguage(done.output.enhancedPrompt)).to.equal('fr');
    expect(done.output).to.not.have.property('task_id');
  });

  it('prompt.enhance.variant: 1 credit per variant, that many distinct variants, the first also as enhancedPrompt', async () => {
    const done = await run('prompt.enhance.variant', { prompt: 'un perro corriendo por la playa', count: 2, variation: 'strong', target: 'video' });
    expect(done.billableCredits).to.equal(2);
    expect(done.input).to.deep.equal({ prompt: 'un perro corriendo por la playa', count: 2, variation: 'strong', target: 'video' });
    const { enhancedPrompts, enhancedPrompt } = done.output;
    expect(done.output).to.include({ status: 'succeeded', operation: 'prompt.enhance.variant', provider: 'local', model: 'local-prompt-template' });
    expect(enhancedPrompts).to.have.length(2);
    expect(enhancedPrompts[0]).to.not.equal(enhancedPrompts[1]);
    expect(enhancedPrompt).to.equal(enhancedPrompts[0]);
    for (const variant of enhancedPrompts) expect(detectLanguage(variant)).to.equal('es');
  });

  it('video.extend: priced per added second, the sample continued: longer, its own frames and sound first', async () => {
    const sampleUrl = `${service.url}/samples/speech.mp4`;
    const done = await run('video.extend', { video_url: sampleUrl, prompt: 'the presenter smiles', duration: 2 });
    // 10 credits x 2 s x wan-2.7's 1.2.
    expect(done.billableCredits).to.equal(24);
    expect(done.input).to.deep.equal({ video_url: sampleUrl, prompt: 'the presenter smiles', duration: 2, model: 'wan-2.7' });
    expect(done.output).to.deep.equal({
      task_id: done.output.task_id,
      asset_type: 'video',
      status: 'succeeded',
      video_url: done.output.video_url,
      duration: 6,
      source_duration: 4,
      aspect_ratio: '16:9',
      provider: 'local',
      model: 'local-video',
    });
    const extended = await fetchToFile(done.output.video_url, 'extended.mp4');
    const sourcePath = join(dir, 'speech.mp4');
    await writeFile(sourcePath, (await download(sampleUrl)).bytes);
    const info = await probeMedia((await download(done.output.video_url)).bytes);
    expect(info.video).to.deep.equal({ codec: 'h264', width: 640, height: 360 });
    expect(info.audio, 'the source\'s sound').to.not.equal(undefined);
    expect(info.durationSeconds).to.be.closeTo(6, 0.1);
    for (const seconds of [0.5, 2, 3.5]) {
      const [ours, theirs] = await Promise.all([framePixels(extended, seconds), framePixels(sourcePath, seconds)]);
      expect(meanDifference(ours, theirs), `${seconds} s`).to.be.below(3);
    }
  });

  it('video.extend: continues a video the gateway made, named by its hosted URL', async () => {
    const generated = await run('video.generate', { prompt: 'a paper boat drifting down a rain gutter', model: 'wan-2.7', duration: 2, resolution: '720p', aspect_ratio: '16:9' });
    const done = await run('video.extend', { video_url: generated.output.video_url, duration: 1 });
    expect(done.output).to.include({ duration: 3, source_duration: 2, aspect_ratio: '16:9' });
    const [extended, source] = await Promise.all([fetchToFile(done.output.video_url, 'extended-generated.mp4'), fetchToFile(generated.output.video_url, 'generated.mp4')]);
    const info = await probeMedia((await download(done.output.video_url)).bytes);
    expect(info.video).to.deep.equal({ codec: 'h264', width: 1280, height: 720 });
    expect(info.durationSeconds).to.be.closeTo(3, 0.1);
    const [ours, theirs] = await Promise.all([framePixels(extended, 1), framePixels(source, 1)]);
    expect(meanDifference(ours, theirs)).to.be.below(3);
  });
});
