/**
 * BFL's answer to a poll (`GET polling_url` or `GET v1/get_result?id=`, the `ResultResponse` of
 * https://api.bfl.ai/openapi.json), read into what the gateway needs. Pure: no I/O.
 *
 * Statuses (https://docs.bfl.ai/api_integration/errors, "Response Types"): `Pending`; `Ready` with
 * `result.sample`, a signed URL that expires after 10 minutes; `Request Moderated` (the prompt or an input image
 * was flagged before processing); `Content Moderated` (the output was flagged); `Task not found` (unknown or
 * expired id); `Error`. BFL's `progress` has no documented scale, so none is reported.
 */
import { pick, ProviderError, requireField, textAt } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './bfl-vendor.js';

export type BflResultView = { state: 'pending' } | { state: 'failed'; message: string } | { state: 'ready'; sampleUrl: string };

export function readBflResult(data: unknown): BflResultView {
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  switch (status) {
    case 'Pending':
      return { state: 'pending' };
    case 'Ready':
      return { state: 'ready', sampleUrl: requireField<string>(data, 'result.sample', PROVIDER_ID) };
    case 'Request Moderated':
      return failed(`the prompt or an input image was refused by BFL's moderation (${status})`, data);
    case 'Content Moderated':
      return failed(`the generated image was withheld by BFL's moderation (${status})`, data);
    case 'Error':
      return failed('BFL reported an error while generating', data);
    case 'Task not found':
      return failed(`BFL does not know the task (${status}): it does not exist or has expired`, data);
    default:
      throw new ProviderError(`${PROVIDER_ID}: malformed response: unknown status "${status}"`, {
        provider: PROVIDER_ID,
        retryable: false,
        vendorCode: 'malformed_response',
      });
  }
}

function failed(what: string, data: unknown): BflResultView {
  const reasons = failureReasons(data);
  return { state: 'failed', message: `${PROVIDER_ID}: ${what}${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}` };
}

/**
 * What BFL says about a failure: the `error` sentence of BFL's guide (black-forest-labs/skills,
 * skills/bfl-api/references/endpoints.md, "Response States") and the text in `details`, an object whose shape
 * is not documented (moderation answers name their reasons there), so every string in it is collected.
 */
function failureReasons(data: unknown): string[] {
  const error = textAt(data, 'error');
  return [...(error ? [error] : []), ...stringsIn(pick(data, 'details'))].slice(0, 5);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
