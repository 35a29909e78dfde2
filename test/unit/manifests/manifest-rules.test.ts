/**
 * The operation manifests as data: every per-model rule of the spec must be a schema condition that accepts the
 * legal case and refuses the illegal one naming the field, every example must validate, and the credit rules must
 * agree with the worked examples in docs/pricing.md.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';
import type { ErrorObject } from 'ajv';
import { createSchemaCompiler, type SchemaValidator } from '../../../src/kernel/manifests/schema-compiler.js';
import { priceRequest } from '../../../src/kernel/credits/credit-rules.js';
import { loadManifests } from '../../../src/kernel/manifests/load-manifests.js';
import { renderExamples } from '../../../src/kernel/manifests/manifest-examples.js';
import { contentTypeForKey } from '../../../src/kernel/blobs/content-types.js';
import { readSampleCatalogue } from '../../../src/kernel/blobs/sample-media.js';
import type { JsonSchema, OperationManifest } from '../../../src/kernel/manifests/manifest-types.js';
import { ALL_OPERATIONS, GUESSED_OPERATIONS, SPEC_OPERATIONS } from '../../support/operation-catalogue.js';

type Input = Record<string, unknown>;

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OPERATIONS_DIR = `${ROOT}manifests/operations/`;

const MANIFEST_KEYS = ['operation', 'summary', 'family', 'deprecated', 'input', 'output', 'defaults', 'credits', 'routing', 'polling', 'examples', 'workspace_links'];
/** Operations whose examples need input media: they name the shipped samples, `{public_url}/samples/<name>`. */
const MEDIA_INPUT_OPERATIONS = [
  'image.edit', 'video.upscale', 'lipsync.generate', 'subtitles.generate', 'smartmotion.generate',
  'three_d.model.generate', 'partner2.video.edit', 'partner2.video.remix', 'partner2.character.create', 'video.extend',
];

const manifestFiles = readdirSync(OPERATIONS_DIR).filter((file) => file.endsWith('.yaml')).sort();
const manifests = new Map<string, OperationManifest>(
  manifestFiles.map((file) => {
    const manifest = parse(readFileSync(OPERATIONS_DIR + file, 'utf8')) as OperationManifest;
    return [manifest.operation, manifest];
  }),
);

const ajv = createSchemaCompiler();
/** Examples as the OpenAPI document and the MCP tools show them, for a gateway at this public URL. */
const PUBLIC_URL = 'https://gateway.test';
const sampleNames = new Set((await readSampleCatalogue()).map((sample) => sample.name));
const validators = new Map<string, SchemaValidator>([...manifests].map(([op, m]) => [op, ajv.compile(m.input)]));

function manifest(operation: string): OperationManifest {
  const found = manifests.get(operation);
  if (!found) throw new Error(`no manifest for ${operation}`);
  return found;
}

/**
 * The kernel's semantics for `defaults`: entries in order; an entry applies when every `when` condition holds
 * (a scalar is equality, `{ present }` tests presence); it sets only fields that are still absent, so the first
 * matching entry wins for each field.
 */
function applyDefaults(m: OperationManifest, input: Input): Input {
  const out: Input = structuredClone(input);
  for (const entry of m.defaults ?? []) {
    const holds = Object.entries(entry.when).every(([field, condition]) =>
      typeof condition === 'object' && condition !== null
        ? (out[field] !== undefined && out[field] !== null) === condition.present
        : out[field] === condition,
    );
    if (!holds) continue;
    for (const [field, value] of Object.entries(entry.set)) {
      if (out[field] === undefined) out[field] = structuredClone(value);
    }
  }
  return out;
}

/** What the create path does before pricing: conditional defaults, then validation (which fills schema defaults). */
function prepare(operation: string, input: Input): { valid: boolean; errors: ErrorObject[]; input: Input } {
  const prepared = applyDefaults(manifest(operation), input);
  const validate = validators.get(operation)!;
  const valid = validate(prepared) as boolean;
  return { valid, errors: validate.errors ?? [], input: prepared };
}

/** The fields an error list names: instance paths, plus the property a required/dependentRequired/additionalProperties error means. */
function failingPaths(errors: readonly ErrorObject[]): string[] {
  const paths = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'required' || error.keyword === 'dependentRequired') paths.add(`${error.instancePath}/${String(error.params.missingProperty)}`);
    else if (error.keyword === 'additionalProperties') paths.add(`${error.instancePath}/${String(error.params.additionalProperty)}`);
    else if (error.keyword === 'errorMessage') {
      paths.add(error.instancePath);
      for (const inner of failingPaths(error.params.errors as ErrorObject[])) paths.add(inner);
    } else paths.add(error.instancePath);
  }
  return [...paths];
}

function expectValid(operation: string, input: Input): Input {
  const result = prepare(operation, input);
  expect(result.valid, `${operation} ${JSON.stringify(input)}: ${ajv.errorsText(result.errors)}`).to.equal(true);
  return result.input;
}

function expectRefused(operation: string, input: Input, path: string, message?: string): void {
  const result = prepare(operation, input);
  expect(result.valid, `${operation} ${JSON.stringify(input)} should be refused`).to.equal(false);
  expect(failingPaths(result.errors), ajv.errorsText(result.errors)).to.include(path);
  if (message) expect(result.errors.map((e) => e.message)).to.include(message);
}

/** Walks the declared properties of a schema (and of array items), calling back with each property's path. */
function eachProperty(schema: JsonSchema, visit: (path: string, property: JsonSchema) => void, prefix = ''): void {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    const path = `${prefix}/${name}`;
    visit(path, property);
    eachProperty(property, visit, path);
    const items = property.items as JsonSchema | undefined;
    if (items && typeof items === 'object') {
      if (items.type === 'string') visit(`${path}/items`, items);
      eachProperty(items, visit, `${path}/items`);
    }
  }
}

/** Absolute URLs, and URLs written against the `{public_url}` placeholder. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^([a-z]+:\/\/|\{public_url\})/i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

describe('operation manifests', () => {
  describe('catalogue', () => {
    it('holds exactly the 18 operations of the spec and the 3 it only names, one file each', () => {
      expect(SPEC_OPERATIONS).to.have.length(18);
      expect(manifestFiles).to.deep.equal(ALL_OPERATIONS.map((op) => `${op}.yaml`).sort());
      expect(manifests.size).to.equal(ALL_OPERATIONS.length);
      // The spec's own operations are not guesses; the guessed ones say so (test/unit/manifests/guessed-operations.test.ts).
      expect([...manifests.values()].filter((m) => 'x-guess' in m.input).map((m) => m.operation).sort()).to.deep.equal([...GUESSED_OPERATIONS].sort());
    });

    it('passes the kernel loader (meta-schema, routing and example checks)', async () => {
      const loaded = await loadManifests([OPERATIONS_DIR]);
      expect(loaded.map(({ manifest: m }) => m.operation).sort()).to.deep.equal([...ALL_OPERATIONS].sort());
    });

    for (const [operation, m] of manifests) {
      describe(operation, () => {
        it('has only the OperationManifest keys', () => {
          expect(MANIFEST_KEYS).to.include.members(Object.keys(m));
          for (const key of ['operation', 'summary', 'family', 'input', 'output', 'credits', 'routing', 'polling', 'examples']) {
            expect(m, key).to.have.property(key);
          }
        });

        it('declares a closed input object whose every property is described and bounded', () => {
          expect(m.input.type).to.equal('object');
          expect(m.input.additionalProperties).to.equal(false);
          eachProperty(m.input, (path, property) => {
            if (!path.endsWith('/items')) expect(property.description, `${path} description`).to.be.a('string');
            if (property.type === 'string') {
              expect(property.maxLength ?? property.enum ?? property.const, `${path} has maxLength or enum`).to.not.equal(undefined);
            }
            if (property.type === 'number' || property.type === 'integer') {
              expect(property.maximum ?? property.enum ?? property.const, `${path} has a maximum or enum`).to.not.equal(undefined);
            }
            if (property.type === 'array') expect(property.maxItems, `${path} maxItems`).to.be.a('number');
            if (/_url$/.test(path) || /_urls\/items$/.test(path)) {
              expect(property.format, `${path} format`).to.equal('uri');
              expect(property.pattern, `${path} pattern`).to.equal('^https?://');
            }
          });
        });

        it('refuses unknown input fields', () => {
          expectRefused(operation, { ...renderExamples(m, PUBLIC_URL)[0], not_a_field: true }, '/not_a_field');
        });

        it('describes the success output with the spec status', () => {
          expect(m.output.type).to.equal('object');
          expect(m.output.additionalProperties).to.equal(true);
          const properties = m.output.properties as Record<string, JsonSchema>;
          const status = operation === 'partner2.character.create' ? 'completed' : 'succeeded';
          expect(properties.status).to.deep.equal({ const: status });
          expect(() => ajv.compile(m.output)).to.not.throw();
        });

        it('routes every model to a vendor plugin (served or planned) with the local fallback', () => {
          const { routing } = m;
          expect(routing.models).to.have.property(routing.default_model);
          for (const [value, route] of Object.entries(routing.models)) {
            expect(route.plugin ?? route.planned, value).to.be.a('string').and.not.equal('local');
            expect(route.vendor_model, value).to.be.a('string');
            expect(route.label, value).to.be.a('string');
            expect(route.fallbacks, value).to.deep.equal(['local']);
          }
          if (routing.model_field) {
            const field = (m.input.properties as Record<string, JsonSchema>)[routing.model_field];
            expect(field, `input has the model field ${routing.model_field}`).to.be.an('object');
            expect([...(field.enum as string[])].sort()).to.deep.equal(Object.keys(routing.models).sort());
          } else {
            expect(Object.keys(routing.models)).to.have.length(1);
          }
        });

        it('polls with a sane strategy', () => {
          const p = m.polling;
          expect(p.first_after_ms).to.be.within(100, 60_000);
          expect(p.every_ms).to.be.within(100, p.max_every_ms);
          expect(p.backoff).to.be.within(1, 3);
          expect(p.give_up_after_ms).to.be.greaterThan(p.max_every_ms * 5);
        });

        it('has 1-3 examples that validate and price', () => {
          expect(m.examples).to.be.an('array').with.length.within(1, 3);
          for (const example of renderExamples(m, PUBLIC_URL)) {
            // As documentation shows it, and after the conditional defaults, as the kernel sees it.
            const validate = validators.get(operation)!;
            expect(validate(structuredClone(example)), `${JSON.stringify(example)}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
            const prepared = expectValid(operation, example);
            const credits = priceRequest(m.credits, prepared);
            if (operation === 'partner2.character.create') expect(credits).to.equal(0);
            else expect(credits, JSON.stringify(example)).to.be.at.least(1);
          }
        });

        it('takes the input media of its examples from the shipped samples, of the kind each field wants', () => {
          const references = m.examples!.flatMap((example) =>
            Object.entries(example).flatMap(([field, value]) => urlsIn(value).map((url) => ({ field, url }))),
          );
          if (!MEDIA_INPUT_OPERATIONS.includes(operation)) expect(references, 'no input media needed').to.deep.equal([]);
          else expect(references, 'input media').to.not.deep.equal([]);
          for (const { field, url } of references) {
            const name = /^\{public_url\}\/samples\/([^/]+)$/.exec(url)?.[1];
            expect(sampleNames, `${field}: ${url} names a shipped sample as {public_url}/samples/<name>`).to.include(name);
            const kind = /image/.test(field) ? 'image/' : /video/.test(field) ? 'video/' : /audio/.test(field) ? 'audio/' : '';
            expect(contentTypeForKey(url), `${field}: ${url}`).to.match(new RegExp(`^${kind}`));
          }
        });
      });
    }
  });

  describe('routing tables', () => {
    it('image.generate accepts exactly twelve models, nano-banana-pro by default', () => {
      const { routing } = manifest('image.generate');
      expect(Object.keys(routing.models)).to.have.length(12);
      expect(routing.default_model).to.equal('nano-banana-pro');
      expect(routing.models['nano-banana-pro'].plugin).to.equal('google');
      expect(routing.models['kling-image'].plugin).to.equal('kling');
    });

    it('video.generate accepts seven model families, Wan and partner2 among them', () => {
      const routes = Object.values(manifest('video.generate').routing.models);
      const families = new Set(routes.map((route) => route.family));
      expect(families.size).to.equal(7);
      expect(families).to.include('Wan').and.to.include('partner2');
      expect(routes.every((route) => typeof route.family === 'string')).to.equal(true);
    });

    it('video.upscale has one disabled model and one deprecated legacy value on the resolution-export plugin', () => {
      const { models, default_model } = manifest('video.upscale').routing;
      const disabled = Object.entries(models).filter(([, route]) => route.disabled);
      const deprecated = Object.entries(models).filter(([, route]) => route.deprecated);
      expect(disabled).to.have.length(1);
      expect(disabled[0][1].disabled).to.be.a('string').with.length.greaterThan(20);
      expect(deprecated).to.have.length(1);
      const [legacyValue, legacy] = deprecated[0];
      expect(legacy.deprecated!.replacement).to.equal(default_model);
      expect(legacy.plugin).to.equal(models[default_model].plugin);
      expect(legacy.vendor_model).to.equal(models[default_model].vendor_model);
      expect(legacyValue).to.not.equal(default_model);
    });

    it('partner2.video.remix is deprecated in favour of partner2.video.edit and takes the same input', () => {
      const remix = manifest('partner2.video.remix');
      const edit = manifest('partner2.video.edit');
      expect(remix.deprecated?.replacement).to.equal('partner2.video.edit');
      expect(remix.deprecated?.message).to.be.a('string');
      expect(edit.deprecated).to.equal(undefined);
      expect(remix.input).to.deep.equal(edit.input);
      expect(remix.routing).to.deep.equal(edit.routing);
    });

    it('soundfx.generate routes by mode and narration.generate by model_id', () => {
      expect(manifest('soundfx.generate').routing.model_field).to.equal('mode');
      expect(Object.keys(manifest('soundfx.generate').routing.models).sort()).to.deep.equal(['one_off', 'video_context']);
      expect(manifest('soundfx.generate').routing.models.one_off.vendor_model).to.equal('eleven_text_to_sound_v2');
      expect(manifest('narration.generate').routing.model_field).to.equal('model_id');
      expect(manifest('narration.generate').routing.default_model).to.equal('eleven_multilingual_v2');
    });
  });

  describe('per-model rules', () => {
    describe('image.generate', () => {
      const op = 'image.generate';
      it('image model A takes 1K/2K/4K, with 1:1 capped below 4K', () => {
        expectValid(op, { prompt: 'p', model: 'nano-banana-pro', resolution: '4K', aspect_ratio: '16:9' });
        expectValid(op, { prompt: 'p', model: 'nano-banana-pro', resolution: '2K', aspect_ratio: '1:1' });
        expectRefused(op, { prompt: 'p', model: 'nano-banana-pro', resolution: '4K', aspect_ratio: '1:1' }, '/resolution');
        expectRefused(op, { prompt: 'p', resolution: '4K', aspect_ratio: '1:1' }, '/resolution');
        expectRefused(op, { prompt: 'p', model: 'nano-banana-pro', resolution: '1k' }, '/resolution',
          'nano-banana-pro accepts resolution 1K, 2K or 4K (upper case)');
      });
      it('image model B takes lower-case 1k/2k', () => {
        expectValid(op, { prompt: 'p', model: 'kling-image', resolution: '2k' });
        expectRefused(op, { prompt: 'p', model: 'kling-image', resolution: '2K' }, '/resolution');
        expectRefused(op, { prompt: 'p', model: 'kling-image', resolution: '4K' }, '/resolution');
        expectRefused(op, { prompt: 'p', model: 'kling-image', aspect_ratio: '4:5' }, '/aspect_ratio');
      });
      it('other models keep to their own resolutions and shapes', () => {
        expectValid(op, { prompt: 'p', model: 'seedream-4', resolution: '4K', aspect_ratio: '1:1' });
        expectRefused(op, { prompt: 'p', model: 'gpt-image-1', resolution: '2K' }, '/resolution');
        expectRefused(op, { prompt: 'p', model: 'gpt-image-1', aspect_ratio: '16:9' }, '/aspect_ratio');
        expectRefused(op, { prompt: 'p', model: 'imagen-4', resolution: '4K' }, '/resolution');
      });
      it('requires a prompt and bounds the references', () => {
        expectRefused(op, { model: 'nano-banana-pro' }, '/prompt');
        expectRefused(op, { prompt: 'x'.repeat(4001) }, '/prompt');
        expectRefused(op, { prompt: 'p', reference_image_urls: ['ftp://example.com/a.png'] }, '/reference_image_urls/0');
        expectRefused(op, { prompt: 'p', reference_prompt_balance: 1.5 }, '/reference_prompt_balance');
      });
    });

    describe('image.edit', () => {
      const op = 'image.edit';
      const source = 'https://example.com/a.png';
      it('needs image_url and prompt', () => {
        expectRefused(op, { prompt: 'p' }, '/image_url');
        expectRefused(op, { image_url: source }, '/prompt');
      });
      it('image model A caps 1:1 below 4K', () => {
        expectValid(op, { prompt: 'p', image_url: source, aspect_ratio: '16:9', resolution: '4K' });
        expectRefused(op, { prompt: 'p', image_url: source, aspect_ratio: '1:1', resolution: '4K' }, '/resolution');
        expectRefused(op, { prompt: 'p', image_url: source, model: 'nano-banana', resolution: '2K' }, '/resolution');
      });
      it('defaults image model A to the largest legal resolution for the aspect ratio', () => {
        expect(expectValid(op, { prompt: 'p', image_url: source, aspect_ratio: '16:9' })).to.include({ model: 'nano-banana-pro', resolution: '4K' });
        expect(expectValid(op, { prompt: 'p', image_url: source, aspect_ratio: '1:1' })).to.include({ resolution: '2K' });
        expect(expectValid(op, { prompt: 'p', image_url: source })).to.include({ resolution: '2K' });
        expect(expectValid(op, { prompt: 'p', image_url: source, aspect_ratio: '16:9', resolution: '1K' })).to.include({ resolution: '1K' });
        expect(expectValid(op, { prompt: 'p', image_url: source, model: 'gpt-image-1' })).to.not.have.property('resolution');
      });
    });

    describe('video.generate', () => {
      const op = 'video.generate';
      const frame = 'https://example.com/f.png';
      const audio = 'https://example.com/a.wav';
      it('video model A cannot combine frame guidance with reference audio', () => {
        expectValid(op, { prompt: 'p', model: 'wan-2.7', audio_url: audio });
        expectValid(op, { prompt: 'p', model: 'wan-2.7', first_frame_url: frame, last_frame_url: frame });
        expectValid(op, { prompt: 'p', model: 'wan-2.7', source_video_url: 'https://example.com/r.mp4', audio_url: audio });
        for (const field of ['image_url', 'first_frame_url']) {
          expectRefused(op, { prompt: 'p', model: 'wan-2.6', [field]: frame, audio_url: audio }, '/audio_url');
        }
        expectRefused(op, { prompt: 'p', first_frame_url: frame, end_image_url: frame, audio_url: audio }, '/audio_url');
      });
      it('reference audio and reference video belong to Wan', () => {
        expectRefused(op, { prompt: 'p', model: 'veo-3.1', audio_url: audio }, '/audio_url');
        expectRefused(op, { prompt: 'p', model: 'wan-2.6', source_video_url: 'https://example.com/r.mp4' }, '/source_video_url');
      });
      it('video model B renders 4, 8, 12, 16 or 20 seconds, 1080p on Pro only', () => {
        for (const duration of [4, 8, 12, 16, 20]) expectValid(op, { prompt: 'p', model: 'partner-2', duration });
        expectRefused(op, { prompt: 'p', model: 'partner-2', duration: 5 }, '/duration');
        expectRefused(op, { prompt: 'p', model: 'partner-2-pro', duration: 10 }, '/duration');
        expectValid(op, { prompt: 'p', model: 'partner-2-pro', resolution: '1080p', aspect_ratio: '9:16' });
        expectRefused(op, { prompt: 'p', model: 'partner-2', resolution: '1080p' }, '/resolution');
        expectRefused(op, { prompt: 'p', model: 'partner-2', aspect_ratio: '1:1' }, '/aspect_ratio');
      });
      it('other families keep to their durations and resolutions', () => {
        expectValid(op, { prompt: 'p', model: 'veo-3.1', duration: 4 });
        expectRefused(op, { prompt: 'p', model: 'veo-3.1', duration: 5 }, '/duration');
        expectRefused(op, { prompt: 'p', model: 'kling-2.6', duration: 4 }, '/duration');
        expectRefused(op, { prompt: 'p', model: 'ltx-2-pro', resolution: '720p' }, '/resolution');
        expectRefused(op, { prompt: 'p', model: 'hailuo-02', duration: 10, resolution: '1080p' }, '/duration');
        expectRefused(op, { prompt: 'p', duration: 1 }, '/duration');
      });
      it('an end frame needs a start frame, and each frame is sent once', () => {
        expectRefused(op, { prompt: 'p', last_frame_url: frame }, '/image_url');
        expectRefused(op, { prompt: 'p', image_url: frame, first_frame_url: frame }, '/first_frame_url');
      });
      it('defaults the model, then its duration and resolution', () => {
        expect(expectValid(op, { prompt: 'p' })).to.include({ model: 'wan-2.7', duration: 5, resolution: '1080p' });
        expect(expectValid(op, { prompt: 'p', model: 'partner-2' })).to.include({ duration: 4, resolution: '720p' });
        expect(expectValid(op, { prompt: 'p', model: 'veo-3.1', duration: 4 })).to.include({ duration: 4, resolution: '720p' });
      });
    });

    describe('video.upscale', () => {
      const op = 'video.upscale';
      const video_url = 'https://example.com/v.mp4';
      it('ties each knob to its model', () => {
        expectValid(op, { video_url, model: 'bytedance-upscaler', target_resolution: '4k' });
        expectValid(op, { video_url, model: 'topaz-proteus', upscale_factor: 4 });
        expectValid(op, { video_url, model: 'topaz-starlight', target_fps: 60 });
        expectValid(op, { video_url, model: 'video-upscaler', target_resolution: '2k' });
        // A knob only one model honours picks that model when none is named.
        expect(expectValid(op, { video_url, upscale_factor: 2 })).to.include({ model: 'topaz-proteus' });
        expect(expectValid(op, { video_url, target_fps: 60 })).to.include({ model: 'topaz-starlight' });
        expectRefused(op, { video_url, model: 'bytedance-upscaler', upscale_factor: 2 }, '/upscale_factor');
        expectRefused(op, { video_url, model: 'topaz-proteus', target_resolution: '4k' }, '/target_resolution');
        expectRefused(op, { video_url, model: 'topaz-proteus', target_fps: 60 }, '/target_fps');
        expectRefused(op, { video_url, model: 'topaz-starlight', upscale_factor: 2 }, '/upscale_factor');
        expectRefused(op, { video_url, model: 'topaz-proteus', upscale_factor: 3 }, '/upscale_factor');
        expectRefused(op, { video_url, model: 'topaz-starlight', target_fps: 24 }, '/target_fps');
      });
      it('needs the video', () => {
        expectRefused(op, { model: 'topaz-proteus' }, '/video_url');
      });
    });

    describe('music.generate', () => {
      const op = 'music.generate';
      it('the model must belong to the provider', () => {
        expectValid(op, { prompt: 'p', provider: 'suno', model: 'V6' });
        expectValid(op, { prompt: 'p', provider: 'elevenlabs', model: 'music_v1' });
        expectRefused(op, { prompt: 'p', provider: 'elevenlabs', model: 'V5' }, '/model');
        expectRefused(op, { prompt: 'p', provider: 'suno', model: 'music_v2' }, '/model');
      });
      it('generation_mode needs music_v2', () => {
        expectValid(op, { prompt: 'p', provider: 'elevenlabs', generation_mode: 'ambience' });
        expectRefused(op, { prompt: 'p', provider: 'elevenlabs', model: 'music_v1', generation_mode: 'loop' }, '/generation_mode');
        expect(expectValid(op, { prompt: 'p', generation_mode: 'track' }), 'picks ElevenLabs').to.include({ provider: 'elevenlabs', model: 'music_v2' });
        expectRefused(op, { prompt: 'p', model: 'V5', generation_mode: 'track' }, '/generation_mode');
        expectRefused(op, { prompt: 'p', provider: 'elevenlabs', generation_mode: 'video_to_music' }, '/generation_mode');
      });
      it('Suno custom mode needs style and title, and lyrics unless instrumental', () => {
        expectValid(op, { custom_mode: true, style: 'folk', title: 'T', prompt: 'la la la' });
        expectValid(op, { custom_mode: true, style: 'folk', title: 'T', instrumental: true });
        expectRefused(op, { custom_mode: true, prompt: 'la la la', title: 'T' }, '/style');
        expectRefused(op, { custom_mode: true, prompt: 'la la la', style: 'folk' }, '/title');
        expectRefused(op, { custom_mode: true, style: 'folk', title: 'T' }, '/prompt');
        expectRefused(op, { provider: 'suno' }, '/prompt');
      });
      it('Suno controls stay with Suno, length stays with ElevenLabs', () => {
        expectRefused(op, { prompt: 'p', provider: 'elevenlabs', persona_id: 'abc' }, '/persona_id');
        expectRefused(op, { prompt: 'p', provider: 'elevenlabs', custom_mode: true, style: 's', title: 't' }, '/custom_mode');
        expectRefused(op, { prompt: 'p', provider: 'suno', duration_seconds: 30 }, '/duration_seconds');
        expectRefused(op, { prompt: 'p', model: 'V5', duration_seconds: 30 }, '/duration_seconds');
        // Only ElevenLabs honours a length: asking for one without a provider or model picks it (a track of that length).
        expect(expectValid(op, { prompt: 'p', duration_seconds: 45 })).to.include({ provider: 'elevenlabs', model: 'music_v2', duration_seconds: 45 });
        expectRefused(op, { prompt: 'x'.repeat(501), provider: 'suno' }, '/prompt');
        expectRefused(op, { prompt: 'p', provider: 'elevenlabs', duration_seconds: 601 }, '/duration_seconds');
      });
      it('defaults the provider and its model', () => {
        expect(expectValid(op, { prompt: 'p' })).to.include({ provider: 'suno', model: 'V5' });
        expect(expectValid(op, { prompt: 'p', provider: 'elevenlabs' })).to.include({ model: 'music_v2', duration_seconds: 30 });
        expect(expectValid(op, { prompt: 'p', model: 'music_v1' })).to.include({ provider: 'elevenlabs', model: 'music_v1' });
        expect(expectValid(op, { prompt: 'p', provider: 'elevenlabs', duration_seconds: 10 })).to.include({ duration_seconds: 10 });
      });
    });

    describe('narration.generate', () => {
      const op = 'narration.generate';
      it('bounds the voice settings', () => {
        expectValid(op, { text: 't', stability: 0, similarity_boost: 1, speed: 0.7, seed: 4294967295 });
        expectRefused(op, { text: 't', stability: 1.1 }, '/stability');
        expectRefused(op, { text: 't', similarity_boost: -0.1 }, '/similarity_boost');
        expectRefused(op, { text: 't', speed: 1.3 }, '/speed');
        expectRefused(op, { text: 't', seed: 4294967296 }, '/seed');
        expectRefused(op, { text: 't', pronunciation_dictionary_ids: ['a', 'b', 'c', 'd'] }, '/pronunciation_dictionary_ids');
        expectRefused(op, { text: 't', apply_text_normalization: 'maybe' }, '/apply_text_normalization');
        expectRefused(op, { text: 'x'.repeat(5001) }, '/text');
        expectRefused(op, { text: 't', model_id: 'eleven_monolingual_v1' }, '/model_id');
      });
      it('keeps model-specific context to the models that support it', () => {
        expectValid(op, { text: 't', model_id: 'eleven_turbo_v2_5', language_code: 'pt-BR' });
        expectValid(op, { text: 't', previous_text: 'before', next_text: 'after' });
        expectRefused(op, { text: 't', language_code: 'de' }, '/language_code');
        expectRefused(op, { text: 't', model_id: 'eleven_v3', previous_text: 'before' }, '/previous_text');
      });
    });

    describe('soundfx.generate', () => {
      const op = 'soundfx.generate';
      const video_url = 'https://example.com/v.mp4';
      it('bounds duration and influence', () => {
        expectValid(op, { prompt: 'p', duration_seconds: 0.5, prompt_influence: 1 });
        expectRefused(op, { prompt: 'p', duration_seconds: 0.4 }, '/duration_seconds');
        expectRefused(op, { prompt: 'p', duration_seconds: 30.5 }, '/duration_seconds');
        expectRefused(op, { prompt: 'p', prompt_influence: 2 }, '/prompt_influence');
      });
      it('video_url selects video context, which cannot loop', () => {
        expect(expectValid(op, { prompt: 'p', video_url })).to.include({ mode: 'video_context' });
        expect(expectValid(op, { video_url })).to.include({ mode: 'video_context' });
        expect(expectValid(op, { prompt: 'p' })).to.include({ mode: 'one_off' });
        expectRefused(op, { prompt: 'p', video_url, loop: true }, '/loop');
        expectRefused(op, { prompt: 'p', mode: 'video_context' }, '/video_url');
        expectRefused(op, { prompt: 'p', mode: 'one_off', video_url }, '/video_url');
        expectRefused(op, { loop: true }, '/prompt');
      });
    });

    describe('lipsync.generate', () => {
      const op = 'lipsync.generate';
      it('needs hosted video and audio URLs', () => {
        expectRefused(op, { video_url: 'https://example.com/v.mp4' }, '/audio_url');
        expectRefused(op, { audio_url: 'https://example.com/a.wav', video_url: 'file:///tmp/v.mp4' }, '/video_url');
      });
    });

    describe('subtitles.generate', () => {
      const op = 'subtitles.generate';
      const video_url = 'https://example.com/v.mp4';
      it('checks the subtitle settings object', () => {
        expectValid(op, { video_url, subtitle_settings: { color: '#ffcc00', strokeColor: '#000000', strokeWidth: 0 } });
        expectRefused(op, { video_url, subtitle_settings: { color: 'white' } }, '/subtitle_settings/color');
        expectRefused(op, { video_url, subtitle_settings: { strokeColor: '#12345' } }, '/subtitle_settings/strokeColor');
        expectRefused(op, { video_url, subtitle_settings: { outline: 2 } }, '/subtitle_settings/outline');
        expectRefused(op, { video_url, content_type: 'mp4' }, '/content_type');
        expectRefused(op, {}, '/video_url');
      });
    });

    describe('smartmotion.generate', () => {
      const op = 'smartmotion.generate';
      const file_url = 'https://example.com/i.jpg';
      it('bounds the camera and matches the control mode', () => {
        expect(expectValid(op, { file_url, camera_control: { zoom: -10, pan: 10 } })).to.include({ control_mode: 'camera_control' });
        expect(expectValid(op, { file_url, motion: 'down_back' })).to.include({ control_mode: 'preset' });
        expectRefused(op, { file_url, camera_control: { zoom: 11 } }, '/camera_control/zoom');
        expectRefused(op, { file_url, camera_control: { dolly: 1 } }, '/camera_control/dolly');
        expectRefused(op, { file_url, control_mode: 'preset', motion: 'down_back', camera_control: { pan: 1 } }, '/camera_control');
        expectRefused(op, { file_url, control_mode: 'camera_control' }, '/camera_control');
        expectRefused(op, { file_url, motion: 'down_back', motion_seed: 1.5 }, '/motion_seed');
        expectRefused(op, { file_url, motion: 'down_back', content_type: 'audio/wav' }, '/content_type');
      });
    });

    describe('three_d.model.generate', () => {
      const op = 'three_d.model.generate';
      const image = 'https://example.com/i.png';
      it('needs at least one source image and links to one saved asset', () => {
        expectRefused(op, {}, '/source_image_urls');
        expectRefused(op, { source_image_urls: [] }, '/source_image_urls');
        expectRefused(op, { source_image_urls: [image, image, image, image, image] }, '/source_image_urls');
        expectRefused(op, { source_image_urls: [image], character_id: 'c1', object_id: 'o1' }, '/object_id');
        expectRefused(op, { source_image_urls: [image], texture_base_color: 'red' }, '/texture_base_color');
        expect(expectValid(op, { source_image_urls: [image] })).to.include({ asset_kind: 'object' });
      });
    });

    describe('three_d.location.generate', () => {
      const op = 'three_d.location.generate';
      const image = 'https://example.com/i.png';
      it('takes a description, source images or both', () => {
        expectValid(op, { description: 'a room' });
        expectValid(op, { source_image_urls: [image] });
        expectRefused(op, { name: 'x' }, '/description');
        expectRefused(op, { name: 'x' }, '/source_image_urls');
      });
      it('defaults quality to standard and refuses expanded sizing', () => {
        expect(expectValid(op, { description: 'a room' })).to.include({ quality: 'standard' });
        expectRefused(op, { description: 'a room', quality: 'expanded' }, '/quality',
          'expanded world sizing is not available until its separate cost cap is approved');
        expectRefused(op, { description: 'a room', quality: 'huge' }, '/quality');
      });
      it('checks angle context', () => {
        expectValid(op, { source_image_urls: [image], angle_context: [{ image_url: image, label: 'door', azimuth: 360 }] });
        expectRefused(op, { source_image_urls: [image], angle_context: [{ image_url: image, azimuth: 361 }] }, '/angle_context/0/azimuth');
        expectRefused(op, { source_image_urls: [image], angle_context: [{ label: 'door' }] }, '/angle_context/0/image_url');
        expectRefused(op, { description: 'a room', angle_context: [{ image_url: image }] }, '/source_image_urls');
      });
    });

    for (const op of ['partner2.video.edit', 'partner2.video.remix']) {
      describe(op, () => {
        it('needs a native video id and a prompt, and keeps 1080p for partner-2-pro', () => {
          expectValid(op, { partner_video_id: 'video_abc-1', prompt: 'p', model: 'partner-2-pro', resolution: '1080p', duration: 20 });
          expectRefused(op, { partner_video_id: 'vid_abc', prompt: 'p' }, '/partner_video_id');
          expectRefused(op, { partner_video_id: 'video_abc' }, '/prompt');
          expectRefused(op, { prompt: 'p' }, '/partner_video_id');
          expectRefused(op, { partner_video_id: 'video_abc', prompt: 'p', duration: 6 }, '/duration');
          expect(expectValid(op, { partner_video_id: 'video_abc', prompt: 'p', resolution: '1080p' }), '1080p picks the pro model').to.include({ model: 'partner-2-pro' });
          expectRefused(op, { partner_video_id: 'video_abc', prompt: 'p', model: 'partner-2', resolution: '1080p' }, '/resolution');
          expectRefused(op, { partner_video_id: 'video_abc', prompt: 'p', model: 'sora-2' }, '/model');
        });
      });
    }

    describe('partner2.video.generate_with_characters', () => {
      const op = 'partner2.video.generate_with_characters';
      it('takes at most two characters, in one of the character fields', () => {
        expectValid(op, { prompt: 'p', partner_cameos: ['char_a', 'char_b'] });
        expectValid(op, { prompt: 'p', partner_characters: [{ id: 'char_a', name: 'Ann' }] });
        expectRefused(op, { prompt: 'p', partner_cameos: ['char_a', 'char_b', 'char_c'] }, '/partner_cameos');
        expectRefused(op, { prompt: 'p', characters: ['char_a', 'char_b', 'char_c'] }, '/characters');
        expectRefused(op, { prompt: 'p', characters: ['cameo_a'] }, '/characters/0');
        expectRefused(op, { prompt: 'p', partner_cameos: ['char_a'], characters: ['char_b'] }, '/characters');
        expectRefused(op, { prompt: 'p' }, '/characters');
      });
      it('renders partner2 durations, and 1080p with quality pro only', () => {
        expectValid(op, { prompt: 'p', characters: ['char_a'], quality: 'pro', resolution: '1080p', duration: 12 });
        expect(expectValid(op, { prompt: 'p', characters: ['char_a'], resolution: '1080p' }), '1080p picks quality pro').to.include({ quality: 'pro' });
        expectRefused(op, { prompt: 'p', characters: ['char_a'], quality: 'standard', resolution: '1080p' }, '/resolution');
        expectRefused(op, { prompt: 'p', characters: ['char_a'], duration: 10 }, '/duration');
      });
    });

    describe('partner2.character.create', () => {
      it('needs a name and a source video URL', () => {
        expectRefused('partner2.character.create', { source_video_url: 'https://example.com/v.mp4' }, '/name');
        expectRefused('partner2.character.create', { name: 'n' }, '/source_video_url');
      });
      it('validates a completed output with a char_ id', () => {
        const validate = ajv.compile(manifest('partner2.character.create').output);
        const output = { status: 'completed', character: { id: 'char_1', name: 'n', sourceVideoUrl: 'https://example.com/v.mp4' }, provider: 'openai', model: 'sora-2' };
        expect(validate(output)).to.equal(true);
        expect(validate({ ...output, status: 'succeeded' })).to.equal(false);
        expect(validate({ ...output, character: { ...output.character, id: 'c_1' } })).to.equal(false);
      });
    });
  });

  describe('credits', () => {
    it('prompt enhancement costs exactly 1 credit', () => {
      for (const op of ['prompt.enhance.video', 'prompt.enhance.image']) {
        expect(manifest(op).credits).to.deep.equal({ base: 1 });
        expect(priceRequest(manifest(op).credits, { prompt: 'x', duration: 60 })).to.equal(1);
      }
    });

    it('character creation is free', () => {
      expect(priceRequest(manifest('partner2.character.create').credits, { name: 'n', source_video_url: 'https://example.com/v.mp4' })).to.equal(0);
    });

    it('every multiply term on the model field prices an absent model as the default model', () => {
      for (const [op, m] of manifests) {
        const field = m.routing.model_field;
        for (const term of m.credits.multiply ?? []) {
          if (term.field !== field || !term.map) continue;
          expect(term.default, op).to.equal(term.map[m.routing.default_model]);
          expect(Object.keys(term.map).sort(), op).to.deep.equal(Object.keys(m.routing.models).sort());
        }
      }
    });

    describe('worked examples in docs/pricing.md', () => {
      const rows = readFileSync(`${ROOT}docs/pricing.md`, 'utf8')
        .split('\n')
        .map((line) => /^\| `([a-z0-9_.]+)` \| `(\{.*\})` \| (\d+) \|/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null);

      it('has worked examples for every operation', () => {
        expect([...new Set(rows.map((row) => row[1]))].sort()).to.deep.equal([...manifests.keys()].sort());
      });

      for (const [, operation, json, credits] of rows) {
        it(`${operation} ${json} costs ${credits}`, () => {
          const input = expectValid(operation, JSON.parse(json) as Input);
          expect(priceRequest(manifest(operation).credits, input)).to.equal(Number(credits));
        });
      }
    });
  });
});
