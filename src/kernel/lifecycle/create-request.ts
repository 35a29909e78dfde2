/**
 * Create: validate -> price -> (idempotency key) -> admission, ONE transaction {insert request `queued`,
 * guarded debit, ledger entry, idempotency completion} shared with the creates that arrive alongside
 * (store/request-admissions.ts) -> publish the job -> accepted response.
 * A publish failure after commit loses nothing: the row is `queued` and due, and the sweeper republishes it.
 * So a broker outage costs a create at most `queue.publish_timeout_ms`, and nothing once the broker is known
 * to be down: the request row is the outbox (README, "Broker outages").
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { ApiError } from '../errors/index.js';
import type { OperationRegistry, PreparedRequest } from '../manifests/index.js';
import { compileSchema } from '../manifests/schema-compiler.js';
import type { JsonObject } from '../plugin-sdk/index.js';
import { unavailableModelError, type PluginRegistry } from '../plugins/index.js';
import type { JobQueue } from '../queue/index.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { WebhookUrlRules } from '../webhooks/url-guard.js';
import type { ArtifactLinker } from '../workspaces/artifact-links.js';
import { IdempotencyStore, RequestStore, isDuplicateKeyError, newId, withTransientRetry, type Admission, type AdmissionResult, type RequestAdmissions } from '../store/index.js';
import { PollHints } from './poll-hints.js';
import { requestUrl, type AcceptedResponse } from './request-view.js';

export interface Caller {
  apiKeyId: string;
  accountId: string;
  /** The signed-in user behind an OAuth client; absent for developer API keys (they act for the account). */
  userId?: string;
  /** The OAuth token carries `workspace:write` (needed to link results to workspace objects). */
  workspaceWrite?: boolean;
}

export interface CreateOutcome {
  status: number;
  body: AcceptedResponse;
  headers: Record<string, string>;
  replayed: boolean;
}

export interface CreateRequestDeps {
  registry: OperationRegistry;
  plugins: PluginRegistry;
  requests: RequestStore;
  idempotency: IdempotencyStore;
  /** Writes the request row, its debit and its idempotency completion in one (shared) transaction. */
  admissions: RequestAdmissions;
  queue: JobQueue;
  clock: { now(): number };
  publicUrl: string;
  log: Logger;
  /** How long an in-flight idempotency key blocks duplicates before it is presumed abandoned. */
  idempotencyLockMs?: number;
  metrics?: GatewayMetrics;
  /** Refuses webhook URLs the deliverer would never send to (scheme), at create time. */
  webhookUrlRules?: WebhookUrlRules;
  /** Checks the workspace objects an input names (e.g. `character_id`) before anything is written or charged. */
  workspaceLinks?: Pick<ArtifactLinker, 'checkAtCreate'>;
}

const envelopeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['operation', 'input'],
  properties: {
    operation: { type: 'string' },
    input: { type: 'object' },
    webhook_url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
  },
};

export class RequestCreator {
  private readonly checkEnvelope = compileSchema(envelopeSchema);
  private readonly pollHints: PollHints;

  constructor(private readonly deps: CreateRequestDeps) {
    this.pollHints = new PollHints(deps.registry, deps.plugins);
  }

  /** Validates and prices without writing anything (also the cost estimate). */
  prepare(body: unknown): { prepared: PreparedRequest; webhookUrl: string | null } {
    if (!this.checkEnvelope(body)) {
      const errors = (this.checkEnvelope.errors ?? []).map((error) => ({
        path:
          error.keyword === 'required'
            ? `/${(error.params as { missingProperty: string }).missingProperty}`
            : error.keyword === 'additionalProperties'
              ? `/${(error.params as { additionalProperty: string }).additionalProperty}`
              : error.instancePath || '/',
        message: error.keyword === 'additionalProperties' ? 'is not an accepted field' : error.keyword === 'required' ? 'is required' : error.message ?? 'is invalid',
      }));
      // An unknown operation is the more useful message when that is what is wrong.
      if (body && typeof body === 'object' && 'operation' in body) this.deps.registry.require((body as { operation: unknown }).operation);
      throw new ApiError('MG_VALIDATION_FAILED', 'the request envelope does not validate', { errors });
    }
    const envelope = body as { operation: string; input: JsonObject; webhook_url?: string };
    const schemeProblem = envelope.webhook_url && this.deps.webhookUrlRules ? this.deps.webhookUrlRules.problem(envelope.webhook_url) : undefined;
    if (schemeProblem) throw new ApiError('MG_VALIDATION_FAILED', `webhook_url ${schemeProblem}`, { errors: [{ path: '/webhook_url', message: schemeProblem }] });
    const definition = this.deps.registry.require(envelope.operation);
    const prepared = definition.prepare(envelope.input);
    // Refused here, before the debit: no plugin the routing policy allows is configured (an open breaker does not
    // count: that request waits in the queue until the manifest's give-up time).
    if (this.deps.plugins.candidates(definition.name, prepared.route).length === 0) {
      throw unavailableModelError(prepared.model, prepared.route, this.deps.plugins.eligible(prepared.route));
    }
    return { prepared, webhookUrl: envelope.webhook_url ?? null };
  }

  async create(caller: Caller, body: unknown, idempotencyKey?: string): Promise<CreateOutcome> {
    const { prepared, webhookUrl } = this.prepare(body);
    const { idempotency, clock } = this.deps;
    if (idempotencyKey !== undefined) {
      if (idempotencyKey.length === 0 || idempotencyKey.length > 255) {
        throw new ApiError('MG_VALIDATION_FAILED', 'x-idempotency-key must be 1-255 characters', {
          errors: [{ path: 'header:x-idempotency-key', message: 'must be 1-255 characters' }],
        });
      }
      const requestHash = hashBody(body);
      const held = await idempotency.acquire(caller.apiKeyId, idempotencyKey, requestHash, clock.now(), this.deps.idempotencyLockMs ?? 60_000);
      if (held !== 'acquired') {
        if (held.requestHash !== requestHash) {
          throw new ApiError('MG_IDEMPOTENCY_KEY_REUSED', 'this x-idempotency-key was used with a different request body; use a new key for a new request');
        }
        if (held.state === 'in_flight') {
          throw new ApiError('MG_IDEMPOTENCY_IN_FLIGHT', 'a request with this x-idempotency-key is still being created; retry shortly', { headers: { 'Retry-After': '1' } });
        }
        const stored = held.responseBody as { body: AcceptedResponse; headers: Record<string, string> };
        return { status: held.responseStatus ?? 202, body: stored.body, headers: stored.headers, replayed: true };
      }
    }
    try {
      await this.deps.workspaceLinks?.checkAtCreate(caller, prepared.operation.manifest, prepared.input as JsonObject);
      return await this.insertAndDebit(caller, prepared, webhookUrl, idempotencyKey);
    } catch (error) {
      if (idempotencyKey !== undefined) await idempotency.release(caller.apiKeyId, idempotencyKey);
      throw error;
    }
  }

  private async insertAndDebit(caller: Caller, prepared: PreparedRequest, webhookUrl: string | null, idempotencyKey: string | undefined): Promise<CreateOutcome> {
    const { requests, admissions, clock, publicUrl } = this.deps;
    const now = clock.now();
    const id = newId('req', now);
    const body: AcceptedResponse = {
      id,
      status: 'queued',
      operation: prepared.operation.name,
      poll_after_ms: this.pollHints.forRoute(prepared.operation, prepared.route),
      urls: { get: requestUrl(publicUrl, id) },
    };
    const headers = deprecationHeaders(prepared);
    // The id is fixed before the first try: if a COMMIT went through but its acknowledgement was lost, the
    // next write of it (a retry here, or admission rewriting its failed batch one by one) hits the primary key
    // instead of creating and charging a second request. The id is fresh and random, so a row that holds it
    // can only be this create's own, committed with its debit.
    const admission: Admission = {
      request: {
        id,
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        operation: prepared.operation.name,
        model: prepared.model,
        billableCredits: prepared.credits,
        input: prepared.input as JsonObject,
        webhookUrl,
        createdAtMs: now,
      },
      idempotency: idempotencyKey === undefined ? undefined : { apiKeyId: caller.apiKeyId, key: idempotencyKey, response: { status: 202, body: { body, headers } } },
    };
    const result = await withTransientRetry(async (): Promise<AdmissionResult> => {
      try {
        return await admissions.admit(admission);
      } catch (error) {
        if (isDuplicateKeyError(error) && (await requests.get(id))) return { admitted: true };
        throw error;
      }
    }, { onRetry: (error) => this.deps.log.warn({ requestId: id, err: error }, 'create transaction retried after a transient database error') });
    // Authentication may have come from this process's key cache; the admission read the key itself.
    if (!result.admitted && 'keyRevoked' in result) throw new ApiError('MG_UNAUTHENTICATED', 'the API key is invalid or has been revoked');
    if (!result.admitted) {
      throw new ApiError('MG_INSUFFICIENT_CREDITS', `this request costs ${prepared.credits} credits; the account has ${result.creditsBalance}`);
    }
    this.deps.metrics?.requestCreated(prepared.operation.name, prepared.model, prepared.credits);
    try {
      // The row as admitted rides along, so the worker's claim needs no read of it (RequestStore.claimStartOf).
      await this.deps.queue.publish(result.known === undefined ? { requestId: id } : { requestId: id, known: result.known });
    } catch (error) {
      this.deps.log.warn({ requestId: id, err: error }, 'publish failed after commit; the sweeper will republish');
    }
    return { status: 202, body, headers, replayed: false };
  }
}

/** Canonical hash of a create body: key order does not make two equal bodies differ. */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * For legacy operations and model values: RFC 9745 `Deprecation` (an RFC 9651 sf-date, `@<unix seconds>`; the
 * RFC has no boolean form), a `Link` to the deprecation docs, RFC 8594 `Sunset` (an HTTP-date) when the end is
 * planned, and a human notice. With an operation and its model both deprecated, the earliest dates win.
 */
function deprecationHeaders(prepared: PreparedRequest): Record<string, string> {
  if (prepared.deprecations.length === 0) return {};
  const since = Math.min(...prepared.deprecations.map((item) => Date.parse(`${item.since}T00:00:00Z`)));
  const sunsets = prepared.deprecations.flatMap((item) => (item.sunset ? [Date.parse(`${item.sunset}T00:00:00Z`)] : []));
  const headers: Record<string, string> = {
    Deprecation: `@${Math.floor(since / 1000)}`,
    Link: `<${deprecationDocsUri}>; rel="deprecation"; type="text/html"`,
    'Mediagate-Deprecation-Notice': prepared.deprecations.map((item) => item.message + (item.replacement ? ` Use ${item.replacement} instead.` : '')).join(' '),
  };
  if (sunsets.length > 0) headers.Sunset = new Date(Math.min(...sunsets)).toUTCString();
  return headers;
}

const deprecationDocsUri = 'https://mediagate.dev/docs/deprecations';
