/**
 * Readers for error bodies that several vendors share, so compatible APIs need no plugin-to-plugin imports.
 */
import { pick, textAt } from './field-map.js';

/**
 * The OpenAI shape `{"error": {"message", "type", "param", "code"}}`, also spoken by OpenAI-compatible servers;
 * `code` is often null and `type` then names the class (https://platform.openai.com/docs/guides/error-codes).
 */
export function describeOpenAIStyleError(body: unknown): { message?: string; code?: string } {
  const error = (body as { error?: { message?: unknown; type?: unknown; code?: unknown } } | undefined)?.error;
  if (!error || typeof error !== 'object') return {};
  const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
  return { message: typeof error.message === 'string' ? error.message : undefined, code };
}

/**
 * Google APIs (Gemini API, Vertex AI, ...) answer errors as google.rpc.Status in an envelope,
 * `{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT", "details": [...]}}`
 * (https://cloud.google.com/apis/design/errors): the message is for people, `status` is the code.
 */
export function describeGoogleApiError(body: unknown): { message?: string; code?: string } {
  const error = (body as { error?: { message?: unknown; status?: unknown } } | undefined)?.error;
  if (!error || typeof error !== 'object') return {};
  return { message: typeof error.message === 'string' ? error.message : undefined, code: typeof error.status === 'string' ? error.status : undefined };
}

/**
 * The error body every FastAPI service answers with: `{"detail": "<sentence>"}` for a raised HTTP error, or
 * `{"detail": [{"loc": ["body", "width"], "msg": "...", "type": "..."}]}` when the request failed validation
 * (https://fastapi.tiangolo.com/tutorial/handling-errors/). Validation problems read `width: <msg>` (the `body`
 * root left out), joined by `; `, with the first problem's `type` as the code.
 */
export function describeFastApiError(body: unknown): { message?: string; code?: string } {
  const detail = pick(body, 'detail');
  if (typeof detail === 'string' && detail.trim() !== '') return { message: detail.trim() };
  if (!Array.isArray(detail)) return {};
  const problems = detail.map(describeValidationProblem).filter((problem): problem is string => problem !== undefined);
  return problems.length > 0 ? { message: problems.join('; '), code: textAt(detail[0], 'type') } : {};
}

function describeValidationProblem(item: unknown): string | undefined {
  const words = textAt(item, 'msg');
  if (words === undefined) return undefined;
  const loc = pick(item, 'loc');
  const path = Array.isArray(loc) ? loc.filter((step) => step !== 'body').map(String).join('.') : '';
  return path === '' ? words : `${path}: ${words}`;
}
