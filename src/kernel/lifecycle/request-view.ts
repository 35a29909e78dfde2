/** The request object and accepted response exactly as the spec names their fields. */
import type { JsonObject } from '../plugin-sdk/index.js';
import type { RequestStatus, RequestViewRecord } from '../store/index.js';

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

export function toRequestObject(record: RequestViewRecord, publicUrl: string): RequestObject {
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
  };
}
