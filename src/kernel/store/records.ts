/** Row shapes of the store, as the kernel sees them (JSON columns parsed). */
import type { JsonObject, ProviderTask } from '../plugin-sdk/index.js';

export const requestStatuses = ['queued', 'processing', 'succeeded', 'failed'] as const;
export type RequestStatus = (typeof requestStatuses)[number];
export const terminalStatuses: ReadonlySet<RequestStatus> = new Set(['succeeded', 'failed']);

export interface RequestRecord {
  id: string;
  accountId: string;
  apiKeyId: string;
  operation: string;
  model: string;
  status: RequestStatus;
  billableCredits: number;
  input: JsonObject | null;
  output: JsonObject | null;
  errorMessage: string | null;
  webhookUrl: string | null;
  createdAtMs: number;
  startedAtMs: number | null;
  completedAtMs: number | null;
  provider: string | null;
  task: ProviderTask | null;
  attempts: number;
  pollCount: number;
  leaseOwner: string | null;
  leaseExpiresAtMs: number | null;
  nextCheckAtMs: number | null;
  dataRemovedAtMs: number | null;
  /** The create's W3C traceparent when tracing was on (docs/tracing.md): later jobs of the request continue it. */
  traceContext: string | null;
}

/** What a client sees of a request (the poll answer): read without the worker's bookkeeping columns. */
export type RequestViewRecord = Pick<
  RequestRecord,
  'id' | 'operation' | 'status' | 'billableCredits' | 'input' | 'output' | 'errorMessage' | 'createdAtMs' | 'startedAtMs' | 'completedAtMs' | 'dataRemovedAtMs'
>;

export interface AccountRecord {
  id: string;
  email: string;
  plan: string;
  creditsBalance: number;
  createdAtMs: number;
}

export type Scope = 'requests:read' | 'requests:write';
export const allScopes: Scope[] = ['requests:read', 'requests:write'];

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  keyPrefix: string;
  scopes: Scope[];
  createdAtMs: number;
  lastUsedAtMs: number | null;
  revokedAtMs: number | null;
}
