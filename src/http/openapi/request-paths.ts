/** The REST paths of the request lifecycle: key status, create/list, estimate, poll and cancel. */
import type { OperationRegistry } from '../../kernel/manifests/index.js';
import { problem, unavailableProblem } from './problem-responses.js';
import { ref, requestIdParameter, type Schema } from './schema-refs.js';

type ProblemResponse = ReturnType<typeof unavailableProblem>;

function statusPath(unavailable: ProblemResponse): Schema {
  return {
    get: {
      operationId: 'getStatus',
      summary: 'Validate the API key and show the credit balance',
      responses: { '200': { description: 'The key is valid', content: { 'application/json': { schema: ref('StatusResponse') } } }, '401': problem('Key missing, invalid or revoked'), '503': unavailable },
    },
  };
}

function listRequestsOperation(registry: OperationRegistry): Schema {
  return {
    operationId: 'listRequests',
    summary: "List this key's requests, newest first, in cursor pages",
    parameters: [
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'starting_after', in: 'query', schema: { type: 'string' }, description: '`next_cursor` of the previous page' },
      { name: 'status', in: 'query', schema: { enum: ['queued', 'processing', 'succeeded', 'failed'] } },
      { name: 'operation', in: 'query', schema: { type: 'string', enum: registry.names() } },
      { name: 'created_after', in: 'query', schema: { type: 'integer' }, description: 'epoch ms, inclusive' },
      { name: 'created_before', in: 'query', schema: { type: 'integer' }, description: 'epoch ms, exclusive' },
    ],
    responses: {
      '200': {
        description: 'One page',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['object', 'data', 'has_more', 'next_cursor'],
              properties: { object: { const: 'list' }, data: { type: 'array', items: ref('RequestObject') }, has_more: { type: 'boolean' }, next_cursor: { type: ['string', 'null'] } },
            },
          },
        },
      },
      '401': problem('Key missing, invalid or revoked'),
      '403': problem('Key lacks requests:read'),
      '422': problem('Invalid query (errors name `query:<parameter>`)'),
    },
  };
}

function createRequestOperation(): Schema {
  return {
    operationId: 'createRequest',
    summary: 'Submit an operation',
    parameters: [
      { name: 'x-idempotency-key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 }, description: 'Makes the create safe to retry (Stripe semantics).' },
      { name: 'Prefer', in: 'header', required: false, schema: { type: 'string', example: 'wait=10' }, description: 'RFC 7240 `wait=N` (N <= 60 s): answer 200 with the finished request object if it completes in time, else the usual 202.' },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: ref('CreateRequest') } } },
    responses: {
      '200': { description: 'Finished within `Prefer: wait`', content: { 'application/json': { schema: ref('RequestObject') } } },
      '202': {
        description: 'Accepted; poll `urls.get`',
        headers: {
          'Idempotent-Replayed': { schema: { const: 'true' }, description: 'Present when this is a replay of an earlier response.' },
          Deprecation: { schema: { type: 'string' }, description: 'Present for legacy operations and model values (RFC 9745).' },
        },
        content: { 'application/json': { schema: ref('AcceptedResponse') } },
      },
      '400': problem('Malformed JSON'),
      '401': problem('Key missing, invalid or revoked'),
      '402': problem('Insufficient credits'),
      '403': problem('Key lacks requests:write'),
      '409': problem('Same idempotency key still in flight'),
      '413': problem('Body too large'),
      '415': problem('Body is not application/json'),
      '422': problem('Validation failed, unknown operation, disabled model, or idempotency key reused with another body'),
      '503': problem('No provider configured for the model (MG_PROVIDER_UNAVAILABLE), or the database is down (MG_UNAVAILABLE, with Retry-After; nothing charged)'),
    },
  };
}

function estimatesPath(): Schema {
  return {
    post: {
      operationId: 'estimateRequest',
      summary: 'Price a create without spending anything (validated exactly as create)',
      requestBody: { required: true, content: { 'application/json': { schema: ref('CreateRequest') } } },
      responses: {
        '200': {
          description: 'What the create would charge',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['operation', 'model', 'billableCredits', 'creditsRemaining', 'affordable'],
                properties: { operation: { type: 'string' }, model: { type: 'string' }, billableCredits: { type: 'integer' }, creditsRemaining: { type: 'integer' }, affordable: { type: 'boolean' } },
              },
            },
          },
        },
        '401': problem('Key missing, invalid or revoked'),
        '422': problem('Validation failed'),
        '503': problem('No provider configured for the model'),
      },
    },
  };
}

function cancelRequestPath(): Schema {
  return {
    post: {
      operationId: 'cancelRequest',
      summary: 'Cancel a queued or processing request: the vendor task is cancelled where the vendor allows it, the request fails and is refunded',
      parameters: [requestIdParameter()],
      responses: {
        '200': { description: 'The cancelled (failed) request', content: { 'application/json': { schema: ref('RequestObject') } } },
        '401': problem('Key missing, invalid or revoked'),
        '403': problem('Key lacks requests:write'),
        '404': problem('No such request for this key'),
        '409': problem('Already finished (MG_REQUEST_ALREADY_FINISHED), or held by a worker this instant (MG_REQUEST_BUSY, retry after Retry-After)'),
      },
    },
  };
}

function getRequestPath(unavailable: ProblemResponse): Schema {
  return {
    get: {
      operationId: 'getRequest',
      summary: 'Poll a request',
      parameters: [requestIdParameter()],
      responses: {
        '200': { description: 'The request object', content: { 'application/json': { schema: ref('RequestObject') } } },
        '401': problem('Key missing, invalid or revoked'),
        '403': problem('Key lacks requests:read'),
        '404': problem('No such request for this key'),
        '503': unavailable,
      },
    },
  };
}

export function buildRequestPaths(registry: OperationRegistry): Record<string, Schema> {
  const unavailable = unavailableProblem();
  return {
    '/api/v1/status': statusPath(unavailable),
    '/api/v1/requests': { get: listRequestsOperation(registry), post: createRequestOperation() },
    '/api/v1/estimates': estimatesPath(),
    '/api/v1/requests/{requestId}/cancel': cancelRequestPath(),
    '/api/v1/requests/{requestId}': getRequestPath(unavailable),
  };
}
