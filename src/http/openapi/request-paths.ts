/** The REST paths of the request lifecycle: key status, create/list, estimate, poll (and its long poll), events and cancel. */
import type { OperationRegistry } from '../../kernel/manifests/index.js';
import { problem, rateLimitedProblem, unavailableProblem } from './problem-responses.js';
import { ref, requestIdParameter, type Schema } from './schema-refs.js';

type ProblemResponse = ReturnType<typeof unavailableProblem>;

function statusPath(unavailable: ProblemResponse): Schema {
  return {
    get: {
      operationId: 'getStatus',
      summary: 'Validate the API key and show the credit balance',
      tags: ['Account'],
      responses: { '200': { description: 'The key is valid', content: { 'application/json': { schema: ref('StatusResponse') } } }, '401': problem('Key missing, invalid or revoked'), '503': unavailable },
    },
  };
}

function listRequestsOperation(registry: OperationRegistry): Schema {
  return {
    operationId: 'listRequests',
    summary: "List this key's requests, newest first, in cursor pages",
    tags: ['Requests'],
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
      '429': rateLimitedProblem(),
    },
  };
}

function createRequestOperation(): Schema {
  return {
    operationId: 'createRequest',
    summary: 'Submit an operation',
    tags: ['Requests'],
    parameters: [
      { name: 'x-idempotency-key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 }, description: 'Makes the create safe to retry (Stripe semantics).' },
      { name: 'Prefer', in: 'header', required: false, schema: { type: 'string', example: 'wait=10' }, description: 'RFC 7240 `wait=N` (N <= 60 s): answer 200 with the finished request object the moment it finishes, if it does in time, else the usual 202.' },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: ref('CreateRequest') } } },
    responses: {
      '200': { description: 'Finished within `Prefer: wait`', headers: { 'Preference-Applied': preferenceApplied() }, content: { 'application/json': { schema: ref('RequestDetail') } } },
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
      '403': problem('Key lacks requests:write; or, for an OAuth client naming workspace objects, its user\'s role or token does not allow editing them (MG_WORKSPACE_ROLE, MG_INSUFFICIENT_SCOPE)'),
      '404': problem('A workspace object the input names (e.g. `character_id`) does not exist or is not visible to the caller (MG_WORKSPACE_OBJECT_NOT_FOUND; `errors` names the field; nothing charged)'),
      '409': problem('Same idempotency key still in flight'),
      '413': problem('Body too large'),
      '415': problem('Body is not application/json'),
      '422': problem('Validation failed, unknown operation, disabled model, or idempotency key reused with another body'),
      '429': rateLimitedProblem(),
      '503': problem('No provider configured for the model (MG_PROVIDER_UNAVAILABLE), or the database is down (MG_UNAVAILABLE, with Retry-After; nothing charged)'),
    },
  };
}

function estimatesPath(): Schema {
  return {
    post: {
      operationId: 'estimateRequest',
      summary: 'Price a create without spending anything (validated exactly as create)',
      tags: ['Requests'],
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
        '429': rateLimitedProblem(),
        '503': problem('No provider configured for the model'),
      },
    },
  };
}

function cancelRequestPath(): Schema {
  return {
    post: {
      operationId: 'cancelRequest',
      tags: ['Requests'],
      summary: 'Cancel a queued or processing request: the vendor task is cancelled where the vendor allows it, the request fails and is refunded',
      parameters: [requestIdParameter()],
      responses: {
        '200': { description: 'The cancelled (failed) request, with its refund', content: { 'application/json': { schema: ref('RequestDetail') } } },
        '401': problem('Key missing, invalid or revoked'),
        '403': problem('Key lacks requests:write'),
        '404': problem('No such request for this key'),
        '409': problem('Already finished (MG_REQUEST_ALREADY_FINISHED), or held by a worker this instant (MG_REQUEST_BUSY, retry after Retry-After)'),
        '429': rateLimitedProblem(),
      },
    },
  };
}

const preferenceApplied = () => ({ schema: { type: 'string', example: 'wait=30' }, description: 'The `Prefer: wait` honoured (RFC 7240), with N capped at 60. Absent when the request was answered without waiting.' });
const entityTag = () => ({
  schema: { type: 'string', example: 'W/"hC2lW0Nl3CSS0sUQpyUbFg"' },
  description: "Weak entity tag of the request's state: it changes whenever anything the client sees changes. Send it back in `If-None-Match`.",
});

function getRequestPath(unavailable: ProblemResponse): Schema {
  return {
    get: {
      operationId: 'getRequest',
      summary: 'Poll a request, or wait for it (long poll)',
      description:
        'Without `Prefer: wait`, answers at once. With `Prefer: wait=N` and no `If-None-Match`, holds the answer until the request succeeds or fails ' +
        '(at once if it already has), or N seconds, then answers with the current state. With both, holds it until the state differs from the one ' +
        '`If-None-Match` names, else 304 when the N seconds are over. A change is seen the moment it is committed, by whichever process: waiting ' +
        'costs no query per waiter. An API process that holds its maximum of waits answers at once, without `Preference-Applied`.',
      tags: ['Requests'],
      parameters: [
        requestIdParameter(),
        { name: 'Prefer', in: 'header', required: false, schema: { type: 'string', example: 'wait=30' }, description: 'RFC 7240 `wait=N`: hold the answer up to N seconds (at most 60) for the result, or with `If-None-Match` for any change.' },
        { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string', example: 'W/"hC2lW0Nl3CSS0sUQpyUbFg"' }, description: "The `ETag` of the state the client holds: 304 without a body while it is still the request's state (weak comparison)." },
      ],
      responses: {
        '200': {
          description: 'The request object, with the credits it moved',
          headers: { ETag: entityTag(), 'Cache-Control': { schema: { const: 'private, no-cache' }, description: 'Any cache may keep the answer, but must revalidate it with `If-None-Match`.' }, 'Preference-Applied': preferenceApplied() },
          content: { 'application/json': { schema: ref('RequestDetail') } },
        },
        '304': { description: 'Not modified: the state is still the one `If-None-Match` names (no body)', headers: { ETag: entityTag(), 'Preference-Applied': preferenceApplied() } },
        '401': problem('Key missing, invalid or revoked'),
        '403': problem('Key lacks requests:read'),
        '404': problem('No such request for this key'),
        '429': rateLimitedProblem(),
        '503': unavailable,
      },
    },
  };
}

function requestEventsPath(): Schema {
  return {
    get: {
      operationId: 'getRequestEvents',
      summary: "Stream a request's states (server-sent events)",
      description:
        "A `text/event-stream` (WHATWG HTML, server-sent events) of the request's states: one event per state, whose `data` is the request object " +
        "exactly as `GET /api/v1/requests/{requestId}` answers it (RequestDetail, one line of JSON) and whose `id` is the state's tag (the poll's `ETag` " +
        'without `W/"..."`). The stream opens with the current state and ends after the terminal one. A reconnect with `Last-Event-ID` is sent only ' +
        'states other than the one it names, and 204 when that one is terminal (an EventSource then stops reconnecting). Idle streams get a comment ' +
        'line (`: keep-alive`) every `watches.keepalive_interval_ms`; a stream also ends after `watches.max_stream_ms` and at shutdown, with ' +
        '`retry:` set, and the client resumes with `Last-Event-ID`. Same key, scope, ownership and read rate limit as the poll.',
      tags: ['Requests'],
      parameters: [
        requestIdParameter(),
        { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'The `id` of the last event received: resume after it.' },
      ],
      responses: {
        '200': {
          description: 'The event stream',
          content: {
            'text/event-stream': {
              schema: { type: 'string' },
              example: 'retry: 1500\n\nid: hC2lW0Nl3CSS0sUQpyUbFg\ndata: {"id":"req_...","status":"processing",...}\n\n: keep-alive\n\nid: k1gGx6Cq3oVZ7u2d9rQ0aA\ndata: {"id":"req_...","status":"succeeded",...}\n\n',
            },
          },
        },
        '204': { description: 'The client already holds the terminal state (`Last-Event-ID`): nothing more will come' },
        '401': problem('Key missing, invalid or revoked'),
        '403': problem('Key lacks requests:read'),
        '404': problem('No such request for this key'),
        '429': rateLimitedProblem(),
        '503': {
          ...problem('MG_UNAVAILABLE: this API process holds its maximum of long polls and streams (`watches.max_per_process`), or the database is down; retry after Retry-After'),
          headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } },
        },
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
    '/api/v1/requests/{requestId}/events': requestEventsPath(),
  };
}
