/** The REST paths of webhooks: the signing secret, test sends, and a request's deliveries and redelivery. */
import { problem } from './problem-responses.js';
import { requestIdParameter, type Schema } from './schema-refs.js';

function secretPath(): Schema {
  return {
    get: {
      operationId: 'getWebhookSecret',
      summary: "The account's Standard Webhooks signing secret (created on first read)",
      tags: ['Webhooks'],
      responses: { '200': { description: 'The secret', content: { 'application/json': { schema: { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^whsec_' } } } } } }, '401': problem('Key missing, invalid or revoked'), '403': problem('Key lacks requests:write') },
    },
  };
}

function rotateSecretPath(): Schema {
  return {
    post: {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret; the previous one keeps signing beside it during the grace window',
      tags: ['Webhooks'],
      responses: { '200': { description: 'The new secret', content: { 'application/json': { schema: { type: 'object', required: ['key'], properties: { key: { type: 'string' }, previousKeyValidForMs: { type: 'integer' } } } } } }, '401': problem('Key missing, invalid or revoked'), '403': problem('Key lacks requests:write') },
    },
  };
}

function testSendPath(): Schema {
  return {
    post: {
      operationId: 'testWebhook',
      summary: 'Send one signed `webhook.test` event to a URL now (same guard and signing as real deliveries)',
      tags: ['Webhooks'],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } } } } },
      responses: {
        '200': {
          description: 'Whether the receiver answered 2xx, and its status where a public target answered; nothing about why an address was not reached',
          content: { 'application/json': { schema: { type: 'object', required: ['id', 'delivered', 'statusCode'], properties: { id: { type: 'string' }, delivered: { type: 'boolean' }, statusCode: { type: ['integer', 'null'] } } } } },
        },
        '401': problem('Key missing, invalid or revoked'),
        '403': problem('Key lacks requests:write'),
        '422': problem('Not an http(s) URL'),
        '429': problem('Too many test sends for this key (`webhooks.test_sends_per_minute`); see Retry-After'),
      },
    },
  };
}

function deliveriesPath(): Schema {
  return {
    get: {
      operationId: 'listWebhookDeliveries',
      summary: "The request's webhook deliveries and every attempt (status code, error, duration)",
      tags: ['Webhooks'],
      parameters: [requestIdParameter()],
      responses: { '200': { description: 'Deliveries', content: { 'application/json': { schema: { type: 'object' } } } }, '401': problem('Key missing, invalid or revoked'), '403': problem('Key lacks requests:read'), '404': problem('No such request for this key') },
    },
  };
}

function redeliverPath(): Schema {
  return {
    post: {
      operationId: 'redeliverWebhook',
      summary: 'Send a delivery again (same webhook-id, so receivers can deduplicate)',
      tags: ['Webhooks'],
      parameters: [
        requestIdParameter(),
        { name: 'deliveryId', in: 'path', required: true, schema: { type: 'string' } },
      ],
      responses: { '202': { description: 'Queued for delivery', content: { 'application/json': { schema: { type: 'object' } } } }, '401': problem('Key missing, invalid or revoked'), '403': problem('Key lacks requests:write'), '404': problem('No such request or delivery') },
    },
  };
}

export function buildWebhookPaths(): Record<string, Schema> {
  return {
    '/api/v1/webhooks/secret': secretPath(),
    '/api/v1/webhooks/secret/rotate': rotateSecretPath(),
    '/api/v1/webhooks/test': testSendPath(),
    '/api/v1/requests/{requestId}/deliveries': deliveriesPath(),
    '/api/v1/requests/{requestId}/deliveries/{deliveryId}/redeliver': redeliverPath(),
  };
}
