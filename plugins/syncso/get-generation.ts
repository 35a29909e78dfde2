/**
 * GET v2/generate/{id}: the generation's `status` (PENDING, PROCESSING, COMPLETED, FAILED, REJECTED, CANCELED,
 * TIMED_OUT), and once COMPLETED `outputUrl` and `outputDuration` (seconds); a failure carries `error` and
 * `error_code` (https://sync.so/docs/api-reference/api/generate-api/get). sync. reports no progress figure.
 * Pure: no I/O, so every vendor shape is testable without a network.
 */
import { MalformedVendorResponse, pick, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './syncso-vendor.js';

export function generationPath(id: string): string {
  return `v2/generate/${encodeURIComponent(id)}`;
}

export type GenerationView =
  | { state: 'pending' }
  | { state: 'failed'; message: string }
  | { state: 'completed'; outputUrl: string; outputSeconds: number };

/** Final without a video, each with what to say when sync. gives no reason. */
const UNSUCCESSFUL: Record<string, string> = {
  FAILED: 'the generation failed',
  REJECTED: 'the generation was rejected',
  CANCELED: 'the generation was canceled',
  TIMED_OUT: 'the generation timed out',
};

export function readGeneration(data: unknown): GenerationView {
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  if (status === 'PENDING' || status === 'PROCESSING') return { state: 'pending' };
  if (status === 'COMPLETED') {
    const seconds = requireField<number>(data, 'outputDuration', PROVIDER_ID, 'number');
    if (!Number.isFinite(seconds) || seconds < 0) throw new MalformedVendorResponse(PROVIDER_ID, 'outputDuration', 'non-negative number');
    return { state: 'completed', outputUrl: requireField<string>(data, 'outputUrl', PROVIDER_ID), outputSeconds: seconds };
  }
  const fallback = Object.hasOwn(UNSUCCESSFUL, status) ? UNSUCCESSFUL[status] : undefined;
  if (!fallback) throw new MalformedVendorResponse(PROVIDER_ID, 'status', `known status (got "${status}")`);
  const error = pick(data, 'error');
  const code = pick(data, 'error_code');
  const reason = typeof error === 'string' && error.trim() !== '' ? error.trim() : fallback;
  return { state: 'failed', message: `syncso: ${reason}${typeof code === 'string' && code !== '' ? ` (${code})` : ''}` };
}
