/**
 * Every error a client can receive, by stable code. The HTTP layer renders these as RFC 9457
 * `application/problem+json`; `docs/errors.md` documents each code and a test keeps the two in step.
 */
export const errorCatalogue = {
  MG_MALFORMED_JSON: { status: 400, title: 'Request body is not valid JSON' },
  MG_UNAUTHENTICATED: { status: 401, title: 'API key missing, invalid or revoked' },
  MG_INSUFFICIENT_CREDITS: { status: 402, title: 'Not enough credits for this request' },
  MG_FORBIDDEN_SCOPE: { status: 403, title: 'API key lacks the scope this endpoint needs' },
  MG_INSUFFICIENT_SCOPE: { status: 403, title: 'The OAuth access token lacks a scope this call needs' },
  MG_FORBIDDEN_ORIGIN: { status: 403, title: 'Origin or Host not allowed' },
  MG_CSRF_REJECTED: { status: 403, title: 'The form failed the CSRF check' },
  MG_FORBIDDEN_ROLE: { status: 403, title: 'Your role in this account does not allow this' },
  MG_WORKSPACE_ROLE: { status: 403, title: 'Your role on this workspace object does not allow this' },
  MG_NOT_FOUND: { status: 404, title: 'No such resource' },
  MG_REQUEST_NOT_FOUND: { status: 404, title: 'No such request for this API key' },
  MG_WORKSPACE_OBJECT_NOT_FOUND: { status: 404, title: 'No such workspace, project, world or asset visible to you' },
  MG_METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed on this path' },
  MG_REQUEST_TIMEOUT: { status: 408, title: 'The request was not received in time' },
  MG_IDEMPOTENCY_IN_FLIGHT: { status: 409, title: 'A request with this idempotency key is still being processed' },
  MG_REQUEST_ALREADY_FINISHED: { status: 409, title: 'The request has already finished' },
  MG_REQUEST_BUSY: { status: 409, title: 'The request is being worked on; retry shortly' },
  MG_DELETE_NOT_CONFIRMED: { status: 409, title: 'A delete runs only with dry_run=false, confirmed=true and the exact title' },
  MG_PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  MG_UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Request body must be application/json' },
  MG_RANGE_NOT_SATISFIABLE: { status: 416, title: 'Requested byte range is outside the file' },
  MG_VALIDATION_FAILED: { status: 422, title: 'The request did not validate' },
  MG_UNKNOWN_OPERATION: { status: 422, title: 'Unknown operation' },
  MG_MODEL_DISABLED: { status: 422, title: 'The requested model is temporarily disabled' },
  MG_IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Idempotency key reused with a different request body' },
  MG_CREDIT_CAP_EXCEEDED: { status: 422, title: 'The request costs more than the confirmed credit cap' },
  MG_RATE_LIMITED: { status: 429, title: 'Too many requests' },
  MG_INTERNAL: { status: 500, title: 'Internal error' },
  MG_PROVIDER_UNAVAILABLE: { status: 503, title: 'No configured provider can serve this model' },
  MG_UNAVAILABLE: { status: 503, title: 'A dependency of the service is unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Where each code is documented; `type` of the problem document. */
export function errorTypeUri(code: ErrorCode): string {
  return `https://mediagate.dev/docs/errors#${code.toLowerCase().replace(/_/g, '-')}`;
}
