/**
 * The request object and accepted response exactly as the spec names their fields, and the detail of one request:
 * the object plus the credits it moved (`credits`), which only the single-request answers carry — the list and the
 * webhook payloads stay one row each.
 */
import type { JsonObject } from '../plugin-sdk/index.js';
import type { LedgerEntry, RequestStatus, RequestViewRecord } from '../store/index.js';

export interface RequestObject {
  id: string;
  operation: string;
  status: RequestStatus;
  billableCredits: number;
  createdAtMs: number;
  startedAtMs: number | null;
  completedAtMs: number | null;
  errorMessage: string | null;
  output: JsonObject;
  /** Submitted input, kept for the retention period (null once purged). */
  input: JsonObject | null;
  /** Set when retention removed the input, output and hosted files. */
  dataRemovedAtMs: number | null;
  urls: { get: string };
  /** While queued or processing: wait about this long before polling again (the create answer's value; PollHints). */
  poll_after_ms?: number;
}

/** One request's credits as its ledger entries record them, so a client can reconcile its balance. */
export interface RequestCredits {
  /** Credits taken from the account for the request: the debit at create, plus a settlement upwards. */
  charged: number;
  /** Credits given back: the refund of a failed request, or a settlement downwards. */
  refunded: number;
  /** `charged − refunded`: `billableCredits` once a request succeeded, 0 once a failed one was refunded. */
  net: number;
  /** Oldest first; `amount` is the change to the balance (a debit is negative). */
  entries: RequestLedgerEntry[];
}

export interface RequestLedgerEntry {
  /** `debit` at create, `refund` of a failed request, `adjust` when the request was settled to measured usage. */
  kind: 'debit' | 'refund' | 'adjust';
  amount: number;
  note: string | null;
  atMs: number;
}

export interface RequestDetail extends RequestObject {
  credits: RequestCredits;
}

export interface AcceptedResponse {
  id: string;
  status: 'queued';
  operation: string;
  poll_after_ms: number;
  urls: { get: string };
}

export function requestUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/v1/requests/${id}`;
}

/** `pollAfterMs` is PollHints.forRecord(record): given while the request is not terminal. */
export function toRequestObject(record: RequestViewRecord, publicUrl: string, pollAfterMs?: number): RequestObject {
  return {
    id: record.id,
    operation: record.operation,
    status: record.status,
    billableCredits: record.billableCredits,
    createdAtMs: record.createdAtMs,
    startedAtMs: record.startedAtMs,
    completedAtMs: record.completedAtMs,
    errorMessage: record.status === 'failed' ? record.errorMessage ?? 'the request failed' : null,
    output: record.output ?? {},
    input: record.input,
    dataRemovedAtMs: record.dataRemovedAtMs,
    urls: { get: requestUrl(publicUrl, record.id) },
    ...(pollAfterMs === undefined ? {} : { poll_after_ms: pollAfterMs }),
  };
}

export function toRequestDetail(record: RequestViewRecord, ledger: readonly LedgerEntry[], publicUrl: string, pollAfterMs?: number): RequestDetail {
  const entries = ledger
    .filter((entry): entry is LedgerEntry & { kind: RequestLedgerEntry['kind'] } => entry.kind !== 'grant')
    .map((entry) => ({ kind: entry.kind, amount: entry.amount, note: entry.note ?? null, atMs: entry.atMs }));
  const charged = entries.reduce((sum, entry) => (entry.amount < 0 ? sum - entry.amount : sum), 0);
  const refunded = entries.reduce((sum, entry) => (entry.amount > 0 ? sum + entry.amount : sum), 0);
  // Object.assign, not `{ ...object, credits }`: see toRequestRecord (store/row-mapping.ts) on Node 20's spreads.
  return Object.assign(toRequestObject(record, publicUrl, pollAfterMs), { credits: { charged, refunded, net: charged - refunded, entries } });
}
