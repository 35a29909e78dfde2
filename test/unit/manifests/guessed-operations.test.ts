/**
 * The three operations the spec only names (location prompt enhancement, variant prompt enhancement, video
 * extension) as data: each manifest says it is a guess where a reader meets it (its summary, hence the OpenAPI
 * create schema's description, and `x-guess` on its input), and its fields, defaults and price behave as
 * documented, through the kernel's own prepare step (conditional defaults, validation with schema defaults,
 * pricing).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../src/kernel/config/index.js';
import { ApiError } from '../../../src/kernel/errors/index.js';
import { loadManifests, OperationRegistry, type PreparedRequest } from '../../../src/kernel/manifests/index.js';
import { buildOpenApiDocument } from '../../../src/http/openapi/build-openapi.js';
import { GUESSED_OPERATIONS } from '../../support/operation-catalogue.js';

const registry = new OperationRegistry(await loadManifests([join(projectRoot, 'manifests/operations')]));
const VIDEO = 'https://media.example/clip.mp4';

function prepare(operation: string, input: Record<string, unknown>): PreparedRequest {
  return registry.require(operation).prepare(input);
}

/** The JSON pointers a refused input names. */
function refusedPaths(operation: string, input: Record<string, unknown>): string[] {
  try {
    prepare(operation, input);
  } catch (error) {
    if (error instanceof ApiError) return (error.extras.errors ?? []).map((entry) => entry.path);
    throw error;
  }
  throw new Error(`${operation} accepted ${JSON.stringify(input)}`);
}

describe('the operations the spec only names (guessed shapes)', () => {
  describe('say they are guesses', () => {
    const what: Record<string, string> = {
      'prompt.enhance.location': 'location prompt enhancement',
      'prompt.enhance.variant': 'variant prompt enhancement',
      'video.extend': 'video extension',
    };
    for (const operation of GUESSED_OPERATIONS) {
      it(`${operation}: in its summary and, machine-readably, on its input`, () => {
        const { manifest } = registry.require(operation);
        expect(manifest.summary).to.contain(`Guessed shape: the spec names ${what[operation]} without an identifier or fields`);
        const note = (manifest.input as Record<string, unknown>)['x-guess'];
        expect(note).to.be.a('string').and.contain(`"${what[operation]}"`).and.contain(operation).and.contain('guesses');
      });
    }

    it('shows both in the OpenAPI document: the sentence in the create schema, x-guess on its input', () => {
      const document = buildOpenApiDocument(registry, 'https://gateway.test') as { components: { schemas: Record<string, any> } };
      for (const operation of GUESSED_OPERATIONS) {
        const schema = document.components.schemas[`Create_${operation.replace(/\./g, '_')}`];
        expect(schema.description, operation).to.match(/Guessed shape: the spec names .+ without an identifier or fields/);
        expect(schema.properties.input['x-guess'], operation).to.equal((registry.require(operation).manifest.input as Record<string, unknown>)['x-guess']);
      }
      const guessedElsewhere = Object.entries(document.components.schemas).filter(
        ([name, schema]) => name.startsWith('Create_') && /Guessed shape/.test(String(schema.description)),
      );
      expect(guessedElsewhere.map(([name]) => name).sort()).to.deep.equal(GUESSED_OPERATIONS.map((operation) => `Create_${operation.replace(/\./g, '_')}`).sort());
    });
  });

  describe('prompt.enhance.location', () => {
    const op = 'prompt.enhance.location';
    it('takes a place, optionally a setting, a style and an extra instruction, for 1 credit', () => {
      const prepared = prepare(op, { prompt: 'an abandoned train station', setting: 'interior', visualStyle: 'photorealistic', rewriteRequest: 'late afternoon' });
      expect(prepared.credits).to.equal(1);
      expect(prepared.model).to.equal('gpt-4.1-mini');
      expect(prepare(op, { prompt: 'x'.repeat(1000), visualStyle: 'x'.repeat(200), rewriteRequest: 'x'.repeat(500) }).credits).to.equal(1);
    });
    it('refuses a missing or over-long place, an unknown setting and unknown fields', () => {
      expect(refusedPaths(op, {})).to.deep.equal(['/input/prompt']);
      expect(refusedPaths(op, { prompt: 'x'.repeat(1001) })).to.deep.equal(['/input/prompt']);
      expect(refusedPaths(op, { prompt: 'a room', rewriteRequest: 'x'.repeat(501) })).to.deep.equal(['/input/rewriteRequest']);
      expect(refusedPaths(op, { prompt: 'a room', setting: 'underwater' })).to.deep.equal(['/input/setting']);
      expect(refusedPaths(op, { prompt: 'a room', description: 'a room' })).to.deep.equal(['/input/description']);
    });
    it("promises a rewrite that fits three_d.location.generate's description", () => {
      const output = registry.require(op).manifest.output.properties as Record<string, { maxLength?: number }>;
      const description = registry.require('three_d.location.generate').manifest.input.properties as Record<string, { maxLength?: number }>;
      expect(output.enhancedPrompt.maxLength).to.equal(description.description.maxLength);
      const check = (enhancedPrompt: string) => registry.require(op).checkOutput({ enhancedPrompt, model: 'm', operation: op, status: 'succeeded' });
      expect(check('x'.repeat(2000))).to.deep.equal([]);
      expect(check('x'.repeat(2001))).to.have.length(1);
    });
  });

  describe('prompt.enhance.variant', () => {
    const op = 'prompt.enhance.variant';
    it('defaults to 3 moderate image variants and costs 1 credit per variant', () => {
      const prepared = prepare(op, { prompt: 'a red bicycle' });
      expect(prepared.input).to.deep.equal({ prompt: 'a red bicycle', count: 3, variation: 'moderate', target: 'image' });
      expect(prepared.credits).to.equal(3);
      expect(prepare(op, { prompt: 'p', count: 1 }).credits).to.equal(1);
      expect(prepare(op, { prompt: 'p', count: 4, variation: 'strong', target: 'video' }).credits).to.equal(4);
    });
    it('takes 1 to 4 whole variants, a known strength and target', () => {
      expect(refusedPaths(op, { prompt: 'p', count: 0 })).to.deep.equal(['/input/count']);
      expect(refusedPaths(op, { prompt: 'p', count: 5 })).to.deep.equal(['/input/count']);
      expect(refusedPaths(op, { prompt: 'p', count: 2.5 })).to.deep.equal(['/input/count']);
      expect(refusedPaths(op, { prompt: 'p', variation: 'wild' })).to.deep.equal(['/input/variation']);
      expect(refusedPaths(op, { prompt: 'p', target: 'audio' })).to.deep.equal(['/input/target']);
      expect(refusedPaths(op, { count: 2 })).to.deep.equal(['/input/prompt']);
    });
    it('answers every variant and the first one as enhancedPrompt', () => {
      const definition = registry.require(op);
      const output = { enhancedPrompts: ['a', 'b'], enhancedPrompt: 'a', model: 'm', operation: op, status: 'succeeded' };
      expect(definition.checkOutput(output)).to.deep.equal([]);
      expect(definition.checkOutput({ ...output, enhancedPrompts: [] })).to.have.length(1);
      expect(definition.checkOutput({ ...output, enhancedPrompts: ['a', 'b', 'c', 'd', 'e'] })).to.have.length(1);
      const { enhancedPrompt: _first, ...withoutFirst } = output;
      expect(definition.checkOutput(withoutFirst)).to.have.length(1);
    });
  });

  describe('video.extend', () => {
    const op = 'video.extend';
    it('continues video_url by 5 s on wan-2.7 by default, priced per added second like video.generate', () => {
      const prepared = prepare(op, { video_url: VIDEO });
      expect(prepared.input).to.deep.equal({ video_url: VIDEO, model: 'wan-2.7', duration: 5 });
      expect(prepared.route).to.include({ plugin: 'dashscope', vendor_model: 'wan2.7-i2v' });
      expect(prepared.route.fallbacks).to.deep.equal(['local']);
      // 10 credits per second x wan-2.7's 1.2, the source not charged again; 1080p x 1.5.
      expect(prepared.credits).to.equal(60);
      expect(prepare(op, { video_url: VIDEO, duration: 2 }).credits).to.equal(24);
      expect(prepare(op, { video_url: VIDEO, duration: 2, resolution: '1080p' }).credits).to.equal(36);
      expect(prepare(op, { video_url: VIDEO, duration: 1 }).credits).to.equal(12);
    });
    it('prices the same way as video.generate for the same seconds, model and resolution', () => {
      for (const [duration, resolution] of [[2, '720p'], [5, '1080p']] as const) {
        const extend = prepare(op, { video_url: VIDEO, duration, resolution }).credits;
        const generate = prepare('video.generate', { prompt: 'p', model: 'wan-2.7', duration, resolution }).credits;
        expect(extend, `${duration} s at ${resolution}`).to.equal(generate);
      }
    });
    it('needs a public video URL and keeps the added seconds, model and resolution to what is served', () => {
      expect(refusedPaths(op, { prompt: 'p' })).to.deep.equal(['/input/video_url']);
      expect(refusedPaths(op, { video_url: 'file:///etc/passwd' })).to.deep.equal(['/input/video_url']);
      expect(refusedPaths(op, { video_url: VIDEO, duration: 0.5 })).to.deep.equal(['/input/duration']);
      expect(refusedPaths(op, { video_url: VIDEO, duration: 11 })).to.deep.equal(['/input/duration']);
      expect(refusedPaths(op, { video_url: VIDEO, model: 'veo-3.1' })).to.deep.equal(['/input/model']);
      expect(refusedPaths(op, { video_url: VIDEO, resolution: '480p' })).to.deep.equal(['/input/resolution']);
      expect(refusedPaths(op, { video_url: VIDEO, seed: -1 })).to.deep.equal(['/input/seed']);
    });
    it('answers the whole video with its length and the length of the source it starts with', () => {
      const definition = registry.require(op);
      const output = { task_id: 't', asset_type: 'video', status: 'succeeded', video_url: 'https://gateway.test/files/v.mp4', provider: 'local', model: 'local-video', duration: 6, source_duration: 4, aspect_ratio: '16:9' };
      expect(definition.checkOutput(output)).to.deep.equal([]);
      const { source_duration: _source, ...withoutSource } = output;
      expect(definition.checkOutput(withoutSource)).to.have.length(1);
    });
  });
});
