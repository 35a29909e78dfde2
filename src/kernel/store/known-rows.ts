/**
 * Rows a worker is handed instead of reading them: a request's row as the process that wrote it last knows it, for a
 * claim pinned to that row (RequestStore.claimStartOf, claimPollOf), so that no read follows the claim.
 */
import type { RequestRecord } from './records.js';
import type { NewRequest, TaskUpdate } from './request-store.js';

/**
 * A request's row as the process that wrote it last knows it (the admission, or the worker that stored its task), kept
 * as its JSON text: a worker holds one per vendor poll it scheduled (thousands), and one string per poll is a third of
 * the memory of the record's objects and strings, and nothing for the garbage collector to trace.
 */
export type KnownRow = string & { readonly knownRow: unique symbol };

/**
 * The longest row kept (characters of JSON). A large input (a long prompt, an inline image) would make every held poll
 * hold it too; such a row is read back at its claim instead, as every row was before.
 */
const knownRowLimit = 2_048;

/**
 * The row as `recordTask` left it, for the worker that held `claimed` (the request as its claim answered it) and wrote
 * `update`: what that worker's next poll claims (RequestStore.claimPollOf); undefined for a row past knownRowLimit.
 * Through JSON, the task and the output come back as a read of the row would give them, not as the caller's objects.
 */
export function recordedTaskRow(claimed: RequestRecord, update: TaskUpdate): KnownRow | undefined {
  const row: RequestRecord = Object.assign({}, claimed, {
    provider: update.provider,
    task: update.task,
    output: update.output,
    pollCount: update.pollCount ?? 0,
    leaseOwner: null,
    leaseExpiresAtMs: null,
    nextCheckAtMs: update.nextCheckAtMs,
  });
  const json = JSON.stringify(row);
  return json.length <= knownRowLimit ? (json as KnownRow) : undefined;
}

/**
 * The row a new request's admission writes, as a read of it would answer: what a start job carries from the process
 * that admitted the request, so that the start's claim needs no read (RequestStore.claimStartOf). Undefined for a row
 * past knownRowLimit. `inputJson` is the text the insert writes, spliced in rather than serialised again.
 */
export function admittedRow(request: NewRequest & { inputJson: string }): KnownRow | undefined {
  if (request.inputJson.length > knownRowLimit) return undefined;
  const rest: Omit<RequestRecord, 'input'> = {
    id: request.id,
    accountId: request.accountId,
    apiKeyId: request.apiKeyId,
    operation: request.operation,
    model: request.model,
    status: 'queued',
    billableCredits: request.billableCredits,
    output: null,
    errorMessage: null,
    webhookUrl: request.webhookUrl,
    createdAtMs: request.createdAtMs,
    startedAtMs: null,
    completedAtMs: null,
    provider: null,
    task: null,
    attempts: 0,
    pollCount: 0,
    leaseOwner: null,
    leaseExpiresAtMs: null,
    nextCheckAtMs: request.createdAtMs,
    dataRemovedAtMs: null,
    traceContext: request.traceContext ?? null,
  };
  const json = `{"input":${request.inputJson},${JSON.stringify(rest).slice(1)}`;
  return json.length <= knownRowLimit ? (json as KnownRow) : undefined;
}

/** The row a known row holds, or undefined for text that is not JSON (a mangled message). */
export function parseKnownRow(row: KnownRow): RequestRecord | undefined {
  try {
    return JSON.parse(row) as RequestRecord;
  } catch {
    return undefined;
  }
}
