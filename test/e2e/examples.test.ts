/**
 * Every example of every manifest, exactly as the OpenAPI document shows it, submitted to a running gateway and
 * polled to `succeeded`: the examples are what a new user sends first, so each must run on a fresh clone, offline.
 * Their input media are the shipped samples at `{public_url}/samples/<name>`. The test gateway's guarded fetch
 * refuses loopback addresses, so an example whose input went out over HTTP instead of being read from the store
 * would fail here.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { LocalFolderBlobs, publishSamples, readSampleCatalogue, SAMPLES_DIR, type SampleEntry } from '../../src/kernel/blobs/index.js';
import { projectRoot } from '../../src/kernel/config/index.js';
import { loadManifests } from '../../src/kernel/manifests/index.js';
import { knowledgeFor } from '../../src/mcp/knowledge/index.js';
import { publicTools } from '../../src/mcp/tools/public/index.js';
import { CapturedLog } from '../support/captured-log.js';
import { startTestService, type TestService } from '../support/test-service.js';

type Input = Record<string, unknown>;

const manifests = (await loadManifests([join(projectRoot, 'manifests/operations')])).map(({ manifest }) => manifest);
const catalogue = await readSampleCatalogue();
/** Polls are spaced so that 33 pollers leave the two cores to the renders. */
const POLL_EVERY_MS = 250;
const DEADLINE_MS = 150_000;

describe('manifest examples, end to end (local provider)', function () {
  this.timeout(DEADLINE_MS + 30_000);
  let service: TestService;
  let key: string;
  let openApiExamples: Map<string, Input[]>;
  /** Terminal request per operation and example index, or the error that stopped its submission or polling. */
  const outcomes = new Map<string, Promise<any>>();

  before(async () => {
    service = await startTestService({ worker: { concurrency: 2 } });
    ({ key } = await service.createKey({ credits: 10_000_000 }));
    const document = (await service.api('GET', '/api/v1/openapi')).body;
    openApiExamples = new Map(
      manifests.map((manifest) => {
        const schema = document.components.schemas[`Create_${manifest.operation.replace(/\./g, '_')}`];
        return [manifest.operation, (schema.examples ?? []).map((example: { input: Input }) => example.input)];
      }),
    );
    // All at once, as independent clients would: the worker's concurrency decides how many render together.
    for (const [operation, examples] of openApiExamples) {
      examples.forEach((input, index) => outcomes.set(`${operation} #${index + 1}`, runToTerminal(operation, input)));
    }
    // Each outcome is asserted by its own test; settle them all here so none is an unhandled rejection meanwhile.
    await Promise.allSettled(outcomes.values());
  });
  after(async () => service?.stop());

  async function runToTerminal(operation: string, input: Input): Promise<any> {
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation, input } });
    if (created.status !== 202) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
    const until = Date.now() + DEADLINE_MS;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
      const polled = await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
      if (polled.status !== 200) throw new Error(`poll answered ${polled.status}: ${JSON.stringify(polled.body)}`);
      if (polled.body.status === 'succeeded' || polled.body.status === 'failed') return polled.body;
      if (Date.now() > until) throw new Error(`still ${polled.body.status} after ${DEADLINE_MS} ms`);
    }
  }

  it('shows every manifest example in the OpenAPI document, with sample URLs on the public URL', () => {
    for (const manifest of manifests) {
      const shown = openApiExamples.get(manifest.operation)!;
      expect(shown, manifest.operation).to.have.length(manifest.examples!.length).and.to.have.length.within(1, 3);
      const raw = JSON.stringify(manifest.examples);
      expect(JSON.stringify(shown), manifest.operation).to.equal(raw.replaceAll('{public_url}', service.url));
      expect(JSON.stringify(shown)).to.not.contain('example.com').and.not.contain('{public_url}');
    }
    expect([...outcomes.keys()]).to.have.length(manifests.reduce((sum, manifest) => sum + manifest.examples!.length, 0));
  });

  for (const manifest of manifests) {
    for (const index of manifest.examples!.keys()) {
      const name = `${manifest.operation} #${index + 1}`;
      it(`${name} runs to succeeded, served by local`, async () => {
        const request = await outcomes.get(name)!;
        expect(request.errorMessage, name).to.equal(null);
        expect(request.status, name).to.equal('succeeded');
        expect(request.output.provider, name).to.equal('local');
        expect(request.output.status, name).to.equal((manifest.output.properties as Record<string, { const: string }>).status.const);
      });
    }
  }

  it('makes, in the character.create example, the very character the generate_with_characters examples name', async () => {
    const character = await outcomes.get('partner2.character.create #1')!;
    const named = manifests.find((manifest) => manifest.operation === 'partner2.video.generate_with_characters')!.examples!
      .map((example) => [...((example.characters ?? example.partner_cameos) as string[])]);
    expect(named).to.deep.equal([[character.output.character.id], [character.output.character.id]]);
  });

  it('shows the same rendered examples in the MCP tools and knowledge', async () => {
    const { gateway } = service.service;
    const knowledge = await knowledgeFor(gateway);
    const getApiOperation = publicTools.find((tool) => tool.name === 'get_api_operation')!;
    for (const manifest of manifests) {
      const contract = (await getApiOperation.handler({ operation: manifest.operation } as never, { gateway, knowledge, publicUrl: service.url })) as { examples: { input: Input }[] };
      expect(contract.examples.map((example) => example.input), manifest.operation).to.deep.equal(openApiExamples.get(manifest.operation));
      const text = knowledge.get(`operation:${manifest.operation}`)!.text;
      expect(text).to.not.contain('{public_url}');
      for (const input of openApiExamples.get(manifest.operation)!) expect(text).to.contain(JSON.stringify(input, null, 2).split('\n').join('\n  '));
    }
  });

  it('reads a sample URL from the store: one the store lacks fails as missing, not as unreachable', async () => {
    const request = await runToTerminal('image.edit', { prompt: 'p', image_url: `${service.url}/samples/missing.png` });
    expect(request.status).to.equal('failed');
    expect(request.errorMessage).to.contain(`(${service.url}/samples/missing.png) does not exist`);
  });

  describe('the samples at /samples/<name>', () => {
    it('stay small: each under 300 kB, all under 1.5 MB, and match their catalogue', async () => {
      expect(catalogue.map((sample) => sample.name).sort()).to.deep.equal(['character.mp4', 'mug.png', 'speech.mp4', 'voice.mp3']);
      for (const sample of catalogue) {
        const bytes = await readFile(join(SAMPLES_DIR, sample.name));
        expect(bytes.length, sample.name).to.equal(sample.bytes).and.be.below(300_000);
        expect(createHash('sha256').update(bytes).digest('hex'), sample.name).to.equal(sample.sha256);
      }
      expect(catalogue.reduce((sum, sample) => sum + sample.bytes, 0)).to.be.below(1_500_000);
    });

    for (const [name, type] of [['mug.png', 'image/png'], ['speech.mp4', 'video/mp4'], ['voice.mp3', 'audio/mpeg'], ['character.mp4', 'video/mp4']]) {
      it(`serves ${name} without an API key, as ${type} with its length`, async () => {
        const response = await fetch(`${service.url}/samples/${name}`);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal(type);
        expect(response.headers.get('content-length')).to.equal(String(sampleNamed(name).bytes));
        expect(response.headers.get('accept-ranges')).to.equal('bytes');
        expect(response.headers.get('cache-control')).to.equal('public, max-age=86400');
        expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(join(SAMPLES_DIR, name)))).to.equal(true);
      });
    }

    it('serves a byte range as 206 and HEAD without a body', async () => {
      const whole = await readFile(join(SAMPLES_DIR, 'speech.mp4'));
      const ranged = await fetch(`${service.url}/samples/speech.mp4`, { headers: { range: 'bytes=100-1099' } });
      expect(ranged.status).to.equal(206);
      expect(ranged.headers.get('content-range')).to.equal(`bytes 100-1099/${whole.length}`);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(100, 1100))).to.equal(true);
      const head = await fetch(`${service.url}/samples/speech.mp4`, { method: 'HEAD' });
      expect(head.status).to.equal(200);
      expect(head.headers.get('content-length')).to.equal(String(whole.length));
      expect(await head.text()).to.equal('');
    });

    for (const path of ['/samples/missing.png', '/samples/%2E%2E', '/samples/..%2Fmug.png']) {
      it(`answers 404 for ${path}`, async () => {
        const response = await fetch(`${service.url}${path}`);
        expect(response.status).to.equal(404);
        expect((await response.json()).code).to.equal('MG_NOT_FOUND');
      });
    }

    it('puts back a stored sample that differs from the shipped one, and skips a damaged sample file with a warning', async () => {
      const { blobs } = service.service.gateway;
      await blobs.put('samples/mug.png', Buffer.from('not the mug'), 'image/png');
      await publishSamples(blobs, pino({ level: 'silent' }));
      expect((await blobs.readAll('samples/mug.png')).equals(await readFile(join(SAMPLES_DIR, 'mug.png')))).to.equal(true);

      const store = new LocalFolderBlobs(join(service.dataDir, 'other-store'));
      const damaged = join(service.dataDir, 'damaged-samples');
      await writeCatalogue(damaged, [{ ...sampleNamed('mug.png'), sha256: '0'.repeat(64) }, sampleNamed('voice.mp3')]);
      const captured = new CapturedLog();
      await publishSamples(store, pino({ level: 'info' }, captured), damaged);
      expect(await store.stat('samples/mug.png')).to.equal(undefined);
      expect(await store.stat('samples/voice.mp3')).to.deep.equal({ size: sampleNamed('voice.mp3').bytes, contentType: 'audio/mpeg' });
      expect(captured.entries('sample media not published: its /samples/ URL will answer 404').map((entry) => [entry.level, entry.sample])).to.deep.equal([[40, 'mug.png']]);
      expect(captured.entries('sample media published to the blob store').map((entry) => entry.samples)).to.deep.equal([['voice.mp3']]);
    });
  });
});

function sampleNamed(name: string): SampleEntry {
  const sample = catalogue.find((entry) => entry.name === name);
  if (!sample) throw new Error(`no sample ${name} in the catalogue`);
  return sample;
}

/** A samples folder holding the shipped files under the given catalogue entries. */
async function writeCatalogue(dir: string, entries: SampleEntry[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const entry of entries) await copyFile(join(SAMPLES_DIR, entry.name), join(dir, entry.name));
  await writeFile(join(dir, 'catalogue.json'), JSON.stringify({ samples: entries }));
}
