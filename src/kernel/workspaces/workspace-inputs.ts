/**
 * Checks on what callers write into workspaces, shared by every door (MCP tools validate shapes with their own
 * schemas first; the kernel still refuses what no door should let through). Failures are 422s naming the field.
 */
import { ApiError } from '../errors/index.js';
import type { OperationRegistry } from '../manifests/index.js';
import type { JsonObject } from '../plugin-sdk/index.js';
import { newId } from '../store/index.js';
import type { ProjectStep } from './workspace-records.js';

export const limits = {
  titleLength: 200,
  descriptionLength: 5000,
  notesLength: 2000,
  steps: 50,
  /** One step's input draft, as JSON: enough for any operation's input, small enough to keep projects light. */
  stepInputBytes: 32 * 1024,
  referenceMedia: 8,
  urlLength: 2048,
} as const;

export function invalid(path: string, message: string): ApiError {
  return new ApiError('MG_VALIDATION_FAILED', `${path.slice(1).replace(/\//g, '.')} ${message}`, { errors: [{ path, message }] });
}

export function checkText(value: string, path: string, max: number, required: boolean): string {
  const trimmed = value.trim();
  if (required && trimmed.length === 0) throw invalid(path, 'must not be empty');
  if (value.length > max) throw invalid(path, `must be at most ${max} characters`);
  return required ? trimmed : value;
}

export interface StepDraft {
  id?: string;
  operation: string;
  input?: JsonObject;
  notes?: string;
}

/**
 * A plan's steps, in order. The operation must be one the gateway serves (a plan of unknown operations could
 * never run); the input is a draft and may be incomplete. Step ids are kept when given, made otherwise.
 */
export function checkSteps(drafts: readonly StepDraft[], registry: OperationRegistry, nowMs: number): ProjectStep[] {
  if (drafts.length > limits.steps) throw invalid('/steps', `must have at most ${limits.steps} steps`);
  const seen = new Set<string>();
  return drafts.map((draft, index) => {
    const path = `/steps/${index}`;
    if (!registry.get(draft.operation)) throw invalid(`${path}/operation`, `is not an operation this gateway serves (${draft.operation})`);
    const input = draft.input ?? {};
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid(`${path}/input`, 'must be an object');
    if (Buffer.byteLength(JSON.stringify(input)) > limits.stepInputBytes) throw invalid(`${path}/input`, `must be at most ${limits.stepInputBytes} bytes as JSON`);
    const id = draft.id ?? newId('step', nowMs);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw invalid(`${path}/id`, 'must be 1-64 letters, digits, _ or -');
    if (seen.has(id)) throw invalid(`${path}/id`, 'is used by another step');
    seen.add(id);
    return { id, operation: draft.operation, input, notes: checkText(draft.notes ?? '', `${path}/notes`, limits.notesLength, false) };
  });
}

export function checkReferenceMedia(urls: readonly string[], path = '/reference_media'): string[] {
  if (urls.length > limits.referenceMedia) throw invalid(path, `must have at most ${limits.referenceMedia} URLs`);
  urls.forEach((url, index) => {
    if (url.length > limits.urlLength || !/^https?:\/\/[^\s]+$/.test(url)) throw invalid(`${path}/${index}`, 'must be an http(s) URL');
  });
  return [...urls];
}
