/**
 * The component schemas every operation shares: the discriminated create body, the accepted/request/status
 * bodies and the problem shape. Operation names come from the registry, so a new manifest appears here unchanged.
 */
import { errorCatalogue } from '../../kernel/errors/index.js';
import type { OperationRegistry } from '../../kernel/manifests/index.js';
import { operationUnion, ref, type Schema } from './schema-refs.js';

/**
 * The fields of the request object that do not depend on its operation; each operation's variant adds `operation`
 * and its typed `output` (operation-schemas.ts).
 */
export function requestObjectFields(): { required: string[]; properties: Record<string, Schema> } {
  return {
    required: ['id', 'status', 'billableCredits', 'createdAtMs', 'startedAtMs', 'completedAtMs', 'errorMessage', 'input', 'dataRemovedAtMs', 'urls'],
    properties: {
      id: { type: 'string', pattern: '^req_' },
      status: { enum: ['queued', 'processing', 'succeeded', 'failed'] },
      billableCredits: {
        type: 'integer',
        description: 'Credits charged: the quote at create, or the settled price once an operation with a settle rule succeeded. A failed request keeps the figure and was refunded it in full.',
      },
      createdAtMs: { type: 'integer' },
      startedAtMs: { type: ['integer', 'null'] },
      completedAtMs: { type: ['integer', 'null'] },
      errorMessage: { type: ['string', 'null'] },
      input: { type: ['object', 'null'], description: 'The submitted input (after defaults), kept for the retention period.' },
      dataRemovedAtMs: { type: ['integer', 'null'], description: 'When retention removed input, output and hosted files (7 days after creation by default).' },
      urls: { type: 'object', required: ['get'], properties: { get: { type: 'string', format: 'uri' } } },
      poll_after_ms: {
        type: 'integer',
        minimum: 0,
        description: 'Present while queued or processing: wait about this long before polling again. The create answer gives the same value: the first check delay of the provider serving the request (manifest `polling`).',
      },
    },
  };
}

/**
 * `output` while it holds no operation output: `{}` while queued and once retention removed a finished request's
 * data; the task the gateway started while processing, kept with `status: failed` when the request fails
 * (request-worker.ts, finish-request.ts).
 */
function pendingOutputSchema(): Schema {
  return {
    type: 'object',
    title: 'Pending output',
    properties: {
      task_id: { type: 'string', description: "The provider's task id (the request id until the provider gave one)." },
      status: { enum: ['processing', 'failed'] },
      provider: { type: 'string', description: 'The plugin serving the request.' },
      model: { type: 'string', description: 'The model value the request was routed to (absent while a synthetic provider stands in).' },
      progress: { type: 'number', description: "The provider's own progress figure, where it reports one." },
    },
  };
}

/**
 * The credits one request moved, from the account's ledger: what a single request's answer (poll, cancel, `Prefer:
 * wait`; the `RequestDetail` variants) carries beside the request object, so a client can reconcile what it was
 * charged and refunded. The list and the webhook payloads carry the plain object.
 */
function requestCreditsSchema(): Schema {
  return {
    type: 'object',
    description: "The credits this request moved, from the account's ledger.",
    required: ['charged', 'refunded', 'net', 'entries'],
    properties: {
      charged: { type: 'integer', minimum: 0, description: 'Credits taken for the request: the debit at create, plus a settlement upwards.' },
      refunded: { type: 'integer', minimum: 0, description: 'Credits given back: the refund of a failed request, or a settlement downwards.' },
      net: { type: 'integer', description: '`charged - refunded`: `billableCredits` once the request succeeded, 0 once a failed request was refunded.' },
      entries: {
        type: 'array',
        description: 'Oldest first.',
        items: {
          type: 'object',
          required: ['kind', 'amount', 'note', 'atMs'],
          properties: {
            kind: { enum: ['debit', 'refund', 'adjust'], description: '`debit` at create, `refund` of a failed request, `adjust` when the request was settled to measured usage.' },
            amount: { type: 'integer', description: 'Change to the balance: a debit is negative.' },
            note: { type: ['string', 'null'] },
            atMs: { type: 'integer' },
          },
        },
      },
    },
  };
}

function statusResponseSchema(): Schema {
  return {
    type: 'object',
    required: ['ok', 'status', 'message', 'creditsRemaining', 'credits', 'account', 'apiKey', 'serverTime'],
    properties: {
      ok: { type: 'boolean' },
      status: { const: 'ok' },
      message: { type: 'string' },
      creditsRemaining: { type: 'integer' },
      credits: { type: 'object', required: ['remaining'], properties: { remaining: { type: 'integer' } } },
      account: { type: 'object', properties: { email: { type: 'string', format: 'email' }, plan: { type: 'string' } } },
      apiKey: { type: 'object', properties: { name: { type: 'string' }, scopes: { type: 'array', items: { enum: ['requests:read', 'requests:write'] } } } },
      serverTime: { type: 'string', format: 'date-time' },
    },
  };
}

function problemSchema(): Schema {
  return {
    type: 'object',
    description: 'RFC 9457 problem details. `code` is stable; see docs/errors.md.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', format: 'uri' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { enum: Object.keys(errorCatalogue) },
      instance: { type: 'string' },
      errors: {
        type: 'array',
        items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string', description: 'JSON pointer into the request body' }, message: { type: 'string' } } },
      },
    },
  };
}

export function buildSharedSchemas(registry: OperationRegistry): Record<string, Schema> {
  return {
    CreateRequest: { description: 'The create body: `operation` names the variant and its `input` schema.', ...operationUnion(registry.names(), 'Create') },
    AcceptedResponse: {
      type: 'object',
      required: ['id', 'status', 'operation', 'poll_after_ms', 'urls'],
      properties: {
        id: { type: 'string', pattern: '^req_' },
        status: { const: 'queued' },
        operation: { type: 'string', enum: registry.names() },
        poll_after_ms: { type: 'integer', minimum: 0 },
        urls: { type: 'object', required: ['get'], properties: { get: { type: 'string', format: 'uri' } } },
      },
    },
    RequestObject: { description: 'A request: `operation` names the variant, whose `output` is typed by the operation.', ...operationUnion(registry.names(), 'RequestObject') },
    PendingOutput: pendingOutputSchema(),
    RequestCredits: requestCreditsSchema(),
    RequestDetail: {
      description: 'A single request with the credits it moved (poll, cancel, `Prefer: wait`): `operation` names the variant.',
      ...operationUnion(registry.names(), 'RequestDetail'),
    },
    StatusResponse: statusResponseSchema(),
    Problem: problemSchema(),
  };
}
