/** The OpenAPI document is valid OpenAPI 3.1 and covers every manifest. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';

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
    expect(operations).to.have.length(18);
    const mapping = document.components.schemas.CreateRequest.discriminator.mapping;
    expect(Object.keys(mapping).sort()).to.deep.equal(operations);
    for (const operation of operations) {
      const schema = document.components.schemas[`Create_${operation.replace(/\./g, '_')}`];
      expect(schema.properties.operation).to.deep.equal({ const: operation });
      expect(schema.properties.input.additionalProperties).to.equal(false);
      expect(document.components.schemas[`Output_${operation.replace(/\./g, '_')}`]).to.be.an('object');
    }
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
