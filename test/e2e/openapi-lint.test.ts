/**
 * The served OpenAPI document lints clean with Redocly's recommended rules as redocly.yaml applies them (zero errors,
 * zero warnings), every example in it validates against its schema with ajv, and the one recommended rule
 * redocly.yaml turns off is replaced by a wider check here. The controls at the end show the linter, as configured,
 * still fails a document that has a broken example or a validator-only keyword.
 */
import { join } from 'node:path';
import { createConfig, lintFromString, loadConfig, type Config, type NormalizedProblem } from '@redocly/openapi-core';
import { expect } from 'chai';
import { projectRoot } from '../../src/kernel/config/index.js';
import { documentValidator } from '../support/openapi-validator.js';
import { startTestService, type TestService } from '../support/test-service.js';

type Json = Record<string, any>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

// Where JSON Schema 2020-12 nests subschemas: on the same instance, or on a child of it.
const sameInstance = { single: ['if', 'then', 'else', 'not'], lists: ['allOf', 'anyOf', 'oneOf'], maps: ['dependentSchemas'] };
const childInstance = { single: ['items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames'], lists: ['prefixItems'], maps: ['properties', 'patternProperties', '$defs'] };

function subschemas(schema: Json, pointer: string, keywords: typeof sameInstance): [Json, string][] {
  const found: [Json, string][] = [];
  for (const keyword of keywords.single) if (isObject(schema[keyword])) found.push([schema[keyword], `${pointer}/${keyword}`]);
  for (const keyword of keywords.lists) (Array.isArray(schema[keyword]) ? schema[keyword] : []).forEach((item: unknown, index: number) => isObject(item) && found.push([item, `${pointer}/${keyword}/${index}`]));
  for (const keyword of keywords.maps) for (const [name, item] of Object.entries(isObject(schema[keyword]) ? schema[keyword] : {})) if (isObject(item)) found.push([item, `${pointer}/${keyword}/${escapePointer(name)}`]);
  return found;
}

/** Every schema in the document with its JSON pointer: component schemas, every `schema` of a path, and their subschemas. */
function schemasOf(document: Json): [Json, string][] {
  const roots: [Json, string][] = Object.entries(document.components.schemas as Json).map(([name, schema]) => [schema, `#/components/schemas/${escapePointer(name)}`]);
  (function findSchemaFields(node: unknown, pointer: string) {
    if (Array.isArray(node)) node.forEach((item, index) => findSchemaFields(item, `${pointer}/${index}`));
    else if (isObject(node)) for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' && isObject(value)) roots.push([value, `${pointer}/schema`]);
      else findSchemaFields(value, `${pointer}/${escapePointer(key)}`);
    }
  })(document.paths, '#/paths');
  const all: [Json, string][] = [];
  const walk = (schema: Json, pointer: string): void => {
    all.push([schema, pointer]);
    for (const [child, at] of [...subschemas(schema, pointer, sameInstance), ...subschemas(schema, pointer, childInstance)]) walk(child, at);
  };
  for (const [schema, pointer] of roots) walk(schema, pointer);
  return all;
}

/** Each example value in the document, with the pointer of the schema it must satisfy. */
function examplesOf(document: Json): { at: string; value: unknown; schema: string }[] {
  const examples: { at: string; value: unknown; schema: string }[] = [];
  for (const [schema, pointer] of schemasOf(document)) {
    if ('example' in schema) examples.push({ at: `${pointer}/example`, value: schema.example, schema: pointer });
    if (Array.isArray(schema.examples)) schema.examples.forEach((value: unknown, index: number) => examples.push({ at: `${pointer}/examples/${index}`, value, schema: pointer }));
  }
  // Parameters, headers and media types carry `example` or a map of Example Objects beside their `schema`.
  (function findHolders(node: unknown, pointer: string) {
    if (Array.isArray(node)) return node.forEach((item, index) => findHolders(item, `${pointer}/${index}`));
    if (!isObject(node)) return;
    if (isObject(node.schema)) {
      if ('example' in node) examples.push({ at: `${pointer}/example`, value: node.example, schema: `${pointer}/schema` });
      for (const [name, example] of Object.entries(isObject(node.examples) ? node.examples : {})) examples.push({ at: `${pointer}/examples/${escapePointer(name)}`, value: (example as Json).value, schema: `${pointer}/schema` });
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'schema') findHolders(value, `${pointer}/${escapePointer(key)}`);
  })(document.paths, '#/paths');
  return examples;
}

/**
 * `required` names that no schema applying to the same instance declares in `properties`: the enclosing object,
 * its conditionals and compositions (and what their `$ref`s point to). Reported as `<pointer>: <name>`.
 */
function undeclaredRequired(document: Json): string[] {
  const resolve = (ref: string): Json | undefined => ref.slice(2).split('/').reduce<any>((node, token) => node?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  const faults: string[] = [];
  const checkInstance = (root: Json, rootPointer: string): void => {
    const group: [Json, string][] = [];
    const seen = new Set<Json>();
    const collect = (schema: Json, pointer: string): void => {
      if (seen.has(schema)) return;
      seen.add(schema);
      group.push([schema, pointer]);
      if (typeof schema.$ref === 'string') {
        const target = resolve(schema.$ref);
        if (isObject(target)) collect(target, schema.$ref);
      }
      for (const [child, at] of subschemas(schema, pointer, sameInstance)) collect(child, at);
    };
    collect(root, rootPointer);
    const declared = new Set(group.flatMap(([schema]) => Object.keys(isObject(schema.properties) ? schema.properties : {})));
    for (const [schema, pointer] of group) {
      const named = [...(Array.isArray(schema.required) ? schema.required : []), ...Object.keys(isObject(schema.dependentSchemas) ? schema.dependentSchemas : {})];
      for (const [field, others] of Object.entries(isObject(schema.dependentRequired) ? schema.dependentRequired : {})) named.push(field, ...(others as string[]));
      for (const name of named) if (!declared.has(name)) faults.push(`${pointer}: ${name}`);
      for (const [child, at] of subschemas(schema, pointer, childInstance)) checkInstance(child, at);
    }
  };
  for (const [name, schema] of Object.entries(document.components.schemas as Json)) checkInstance(schema, `#/components/schemas/${escapePointer(name)}`);
  return [...new Set(faults)];
}

/** The examples that fail their schema under ajv (the gateway's own validator), as `<pointer>: <errors>`. */
function invalidExamples(document: Json): string[] {
  const validator = documentValidator(document);
  return examplesOf(document).flatMap(({ at, value, schema }) => validator.problems(schema, value).map((problem) => `${at}: ${problem}`));
}

const describeProblem = (problem: NormalizedProblem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location.map((location) => ('pointer' in location ? location.pointer : '')).join(', ')}`;

describe('the OpenAPI document, linted', () => {
  let service: TestService;
  let document: Json;
  let config: Config;
  const lint = async (candidate: Json) => (await lintFromString({ source: JSON.stringify(candidate, null, 2), absoluteRef: `${service.url}/api/v1/openapi`, config })).map(describeProblem);

  before(async () => {
    service = await startTestService();
    const response = await service.api('GET', '/api/v1/openapi');
    expect(response.status).to.equal(200);
    document = response.body;
    config = await loadConfig({ configPath: join(projectRoot, 'redocly.yaml') });
  });
  after(async () => service?.stop());

  it("has no error and no warning under Redocly's recommended rules, as redocly.yaml applies them", async () => {
    expect(await lint(document)).to.deep.equal([]);
  });

  it('departs from recommended only where redocly.yaml says why', async () => {
    const recommended = await createConfig({ extends: ['recommended'] });
    const ours = config.rules.oas3_1 as Record<string, unknown>;
    const changed = Object.keys(ours).filter((rule) => JSON.stringify(ours[rule]) !== JSON.stringify((recommended.rules.oas3_1 as Record<string, unknown>)[rule])).sort();
    expect(changed).to.deep.equal(['no-invalid-schema-examples', 'no-required-schema-properties-undefined', 'operation-tag-defined']);
    expect(ours['no-required-schema-properties-undefined']).to.equal('off');
    expect(ours['operation-tag-defined']).to.equal('error');
  });

  it('names in `required` only properties the same object declares, conditionals included (the check redocly.yaml turns off)', () => {
    expect(undeclaredRequired(document)).to.deep.equal([]);
    const broken = structuredClone(document);
    broken.components.schemas.Create_video_upscale.properties.input.allOf[0].then.required = ['upscale_factor', 'target_fsp'];
    expect(undeclaredRequired(broken)).to.deep.equal(['#/components/schemas/Create_video_upscale/properties/input/allOf/0/then: target_fsp']);
  });

  it('validates every example against its schema with ajv, each manifest example included', () => {
    expect(invalidExamples(document)).to.deep.equal([]);
    const manifestExamples = service.service.gateway.registry.all().flatMap(({ name, manifest }) =>
      (manifest.examples ?? []).map((_, index) => `#/components/schemas/Create_${name.replace(/\./g, '_')}/examples/${index}`),
    );
    expect(manifestExamples.length).to.be.above(20);
    expect(examplesOf(document).map(({ at }) => at)).to.include.members(manifestExamples);
  });

  it('shows no validator-only keyword (errorMessage) in a schema, though the manifests use it', () => {
    const keywordAt = schemasOf(document).filter(([schema]) => 'errorMessage' in schema).map(([, pointer]) => pointer);
    expect(keywordAt).to.deep.equal([]);
    const manifests = JSON.stringify(service.service.gateway.registry.all().map(({ manifest }) => manifest.input));
    expect(manifests).to.contain('"errorMessage":');
  });

  describe('controls: the checks as configured still fail', () => {
    // Only what the change adds counts, so that a control keeps its meaning while the document itself has a fault.
    let baseline: Set<string>;
    const added = async (broken: Json) => (await lint(broken)).filter((problem) => !baseline.has(problem));
    before(async () => {
      baseline = new Set(await lint(document));
    });

    it('an example that does not fit its schema', async () => {
      const broken = structuredClone(document);
      broken.components.schemas.Create_image_generate.examples[0].input.prompt = 42;
      expect(await added(broken)).to.deep.equal([
        'warn no-invalid-schema-examples: Example value must conform to the schema: `prompt` property type must be string. at #/components/schemas/Create_image_generate/examples/0/input/prompt',
      ]);
      expect(invalidExamples(broken)).to.deep.equal(['#/components/schemas/Create_image_generate/examples/0: /input/prompt must be string']);
    });

    it('an example with a field the input does not declare', async () => {
      const broken = structuredClone(document);
      broken.components.schemas.Create_image_generate.examples[0].input.colour = 'red';
      expect(await added(broken)).to.deep.equal([
        'warn no-invalid-schema-examples: Example value must conform to the schema: `input` property must NOT have additional properties `colour`. at #/components/schemas/Create_image_generate/examples/0/input/colour',
      ]);
    });

    it('a validator-only keyword left in a schema', async () => {
      const broken = structuredClone(document);
      broken.components.schemas.Create_video_upscale.properties.input.properties.model.errorMessage = 'pick a model';
      expect(await added(broken)).to.deep.equal([
        'error struct: Property `errorMessage` is not expected here. at #/components/schemas/Create_video_upscale/properties/input/properties/model/errorMessage',
      ]);
    });
  });
});
