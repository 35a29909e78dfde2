/**
 * The OpenAPI document is valid OpenAPI 3.1 and covers every manifest, and the request objects the gateway serves fit
 * the variant of their operation. Its lint is in openapi-lint.test.ts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { projectRoot } from '../../src/kernel/config/index.js';
import { documentValidator } from '../support/openapi-validator.js';
import { startTestService, type TestService } from '../support/test-service.js';

const schemaRef = (name: string) => `#/components/schemas/${name}`;
const suffix = (operation: string) => operation.replace(/\./g, '_');

describe('GET /api/v1/openapi', () => {
  let service: TestService;
  let document: any;
  before(async () => {
    service = await startTestService();
    const response = await service.api('GET', '/api/v1/openapi');
    expect(response.status).to.equal(200);
    document = response.body;
  });
  after(async () => service.stop());

  it('validates as OpenAPI 3.1', async () => {
    expect(document.openapi).to.equal('3.1.0');
    await SwaggerParser.validate(structuredClone(document));
  });

  it('has one create schema per operation, discriminated by operation', () => {
    const operations = service.service.gateway.registry.names();
    const manifestFiles = readdirSync(join(projectRoot, 'manifests/operations')).filter((name) => name.endsWith('.yaml'));
    expect(operations.map((operation) => `${operation}.yaml`)).to.deep.equal(manifestFiles.sort());
    const mapping = document.components.schemas.CreateRequest.discriminator.mapping;
    expect(Object.keys(mapping).sort()).to.deep.equal(operations);
    for (const operation of operations) {
      const schema = document.components.schemas[`Create_${operation.replace(/\./g, '_')}`];
      expect(schema.properties.operation).to.deep.equal({ type: 'string', const: operation });
      expect(schema.properties.input.additionalProperties).to.equal(false);
      expect(document.components.schemas[`Output_${operation.replace(/\./g, '_')}`]).to.be.an('object');
    }
  });

  it('types the request object by operation: a variant per operation whose output is that operation\'s', () => {
    const operations = service.service.gateway.registry.names();
    const { RequestObject } = document.components.schemas;
    expect(RequestObject.oneOf).to.deep.equal(operations.map((operation) => ({ $ref: schemaRef(`RequestObject_${suffix(operation)}`) })));
    expect(RequestObject.discriminator).to.deep.equal({
      propertyName: 'operation',
      mapping: Object.fromEntries(operations.map((operation) => [operation, schemaRef(`RequestObject_${suffix(operation)}`)])),
    });
    for (const operation of operations) {
      const variant = document.components.schemas[`RequestObject_${suffix(operation)}`];
      expect(variant.required, operation).to.include.members(['id', 'operation', 'status', 'output', 'urls']);
      expect(variant.properties.operation, operation).to.deep.equal({ type: 'string', const: operation });
      expect(variant.properties.output.anyOf, operation).to.deep.equal([{ $ref: schemaRef(`Output_${suffix(operation)}`) }, { $ref: schemaRef('PendingOutput') }]);
    }
    // A single request's answer: the same variants, each flat with the request's credits (no allOf over the union).
    const { RequestDetail } = document.components.schemas;
    expect(RequestDetail.oneOf).to.deep.equal(operations.map((operation) => ({ $ref: schemaRef(`RequestDetail_${suffix(operation)}`) })));
    expect(RequestDetail.discriminator.mapping[operations[0]]).to.equal(schemaRef(`RequestDetail_${suffix(operations[0])}`));
    for (const operation of operations) {
      const object = document.components.schemas[`RequestObject_${suffix(operation)}`];
      const detail = document.components.schemas[`RequestDetail_${suffix(operation)}`];
      expect(detail.required, operation).to.deep.equal([...object.required, 'credits']);
      expect(detail.properties, operation).to.deep.equal({ ...object.properties, credits: { $ref: schemaRef('RequestCredits') } });
      expect(detail).to.not.have.property('allOf');
    }
  });

  it('describes the request objects it serves: accepted, pending, succeeded, failed and listed', async () => {
    const validator = documentValidator(document);
    const { key } = await service.createKey({ credits: 100_000 });
    const poll = async (id: string) => {
      const seen: any[] = [];
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 100))) {
        const polled = await service.api('GET', `/api/v1/requests/${id}`, { key });
        expect(polled.status).to.equal(200);
        seen.push(polled.body);
        if (polled.body.status === 'succeeded' || polled.body.status === 'failed') return seen;
      }
      throw new Error(`request ${id} did not finish in 30 s`);
    };

    const [example] = document.components.schemas.Create_prompt_enhance_image.examples;
    const created = await service.api('POST', '/api/v1/requests', { key, body: example });
    expect(created.status).to.equal(202);
    expect(validator.problems(schemaRef('AcceptedResponse'), created.body)).to.deep.equal([]);
    const succeeded = await poll(created.body.id);
    for (const body of succeeded) expect(validator.problems(schemaRef('RequestDetail'), body), body.status).to.deep.equal([]);
    const finished = succeeded.at(-1);
    expect(finished.status).to.equal('succeeded');
    // The succeeded output is the operation's own output, not the pending shape; another variant refuses the object.
    expect(validator.problems(schemaRef('Output_prompt_enhance_image'), finished.output)).to.deep.equal([]);
    expect(validator.problems(schemaRef('PendingOutput'), finished.output)).to.not.deep.equal([]);
    expect(validator.problems(schemaRef('RequestObject_prompt_enhance_video'), finished)).to.include('/operation must be equal to constant');

    const missing = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'image.edit', input: { prompt: 'p', image_url: `${service.url}/samples/missing.png` } } });
    expect(missing.status).to.equal(202);
    const failed = (await poll(missing.body.id)).at(-1);
    expect(failed.status).to.equal('failed');
    expect(validator.problems(schemaRef('RequestDetail'), failed)).to.deep.equal([]);
    expect(validator.problems(schemaRef('PendingOutput'), failed.output)).to.deep.equal([]);

    const listed = await service.api('GET', '/api/v1/requests', { key });
    expect(listed.status).to.equal(200);
    expect(listed.body.data).to.have.length(2);
    const listSchema = '#/paths/~1api~1v1~1requests/get/responses/200/content/application~1json/schema';
    expect(validator.problems(listSchema, listed.body)).to.deep.equal([]);
  });

  it('documents the decisions the spec leaves open and the error shape', () => {
    expect(document.info.description).to.contain('Idempotency');
    expect(document.info.description).to.contain('Scopes');
    expect(document.components.schemas.Problem.properties.code.enum).to.include('MG_VALIDATION_FAILED');
    expect(document.paths['/api/v1/requests'].post.responses).to.include.keys('202', '400', '401', '402', '403', '409', '413', '415', '422');
    expect(document.servers[0].url).to.equal(service.url);
    expect(document.paths['/api/v1/requests'].get.operationId).to.equal('listRequests');
    expect(document.paths['/api/v1/requests/{requestId}/cancel'].post.operationId).to.equal('cancelRequest');
    expect(document.paths['/api/v1/estimates'].post.operationId).to.equal('estimateRequest');
  });
});
