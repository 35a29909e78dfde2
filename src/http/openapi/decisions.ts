/**
 * The decisions taken where the spec says "not shown". Written once, here, and rendered into the OpenAPI
 * document's description; the README links to the same list.
 */
export const apiDecisions = `
## Decisions where the service spec is silent

- **Errors** are RFC 9457 \`application/problem+json\`: \`type\`, \`title\`, \`status\`, \`detail\`, a stable
  \`code\` (\`MG_...\`, see docs/errors.md) and, for 422, \`errors: [{path, message}]\` with a JSON pointer per failing field.
  400 malformed JSON, 401 key missing/invalid/revoked, 402 insufficient credits, 403 missing scope, 404 unknown request
  (or another key's), 409 idempotent duplicate still in flight, 413 body too large, 415 not JSON, 422 validation,
  idempotency-key reuse with another body, unknown operation or disabled model, 503 no provider configured for the model
  (\`MG_PROVIDER_UNAVAILABLE\`), 503 \`MG_UNAVAILABLE\` with \`Retry-After\` while the database or blob storage is down
  (never 500; nothing written, nothing charged).
- **Broker outages**: a create is committed (request row + debit) before its job is published, and the request row is
  the outbox: while RabbitMQ is down a create is still answered 202, after at most \`queue.publish_timeout_ms\` (1 s) right
  after the drop and at once once the outage is known; the sweeper publishes the \`queued\` row when the broker is back.
- **Key revocation**: a create is never admitted for a key revoked before its admission transaction (the debit is
  guarded by the key's \`revoked_at_ms\`, so nothing is charged); reads may still be served for up to the key cache time
  (2 s) in an API process other than the one that revoked it.
- **Scopes**: \`GET /api/v1/status\` accepts any valid key; \`POST /api/v1/requests\` needs \`requests:write\`;
  \`GET /api/v1/requests/{id}\` needs \`requests:read\`. A request is visible only to the key that created it.
- **Idempotency** (Stripe semantics): \`x-idempotency-key\` (1-255 chars) is scoped to the API key and kept 7 days.
  Same key + same body replays the first response with \`Idempotent-Replayed: true\`; same key + a different body is 422
  \`MG_IDEMPOTENCY_KEY_REUSED\`; a duplicate that arrives while the first is still being created is 409
  \`MG_IDEMPOTENCY_IN_FLIGHT\` with \`Retry-After\`. Requests rejected before anything is written (validation, 402)
  do not consume the key.
- **Transitions**: \`queued -> processing\` when a worker claims the request (\`startedAtMs\` set) and while the downstream
  task runs (\`output\` then carries \`task_id\`, \`status\`, \`provider\` and, except while the offline \`local\`
  provider renders, \`model\`); \`processing -> succeeded|failed\` when
  the provider finishes, fails, or the operation's give-up time passes. A request whose provider is temporarily down may go
  back to \`queued\` until it can start. Failed requests are refunded in full.
- **Workspace links**: inputs that name workspace objects (\`three_d.model.generate\`: \`character_id\`, \`object_id\`,
  \`universe_id\`, \`workspace_id\`; \`three_d.location.generate\`: \`location_id\`, \`zone_id\`, \`universe_id\`,
  \`workspace_id\`, \`project_id\`) are checked at create before any debit: 404 \`MG_WORKSPACE_OBJECT_NOT_FOUND\` for an
  object the caller cannot see, 422 when the kind is wrong or they do not fit together (the asset in another universe, the
  zone in another location). A developer API key may name its own account's workspace objects; an OAuth client acts as its
  user, who needs the editor role and a token with \`workspace:write\` (403 otherwise). When the request succeeds, its hosted
  artifacts (every \`*_url\` / \`*_urls\` of the output) are linked to the named character/object/location/zone (or the
  universe when no asset is named) and the request is recorded on the project, in the transaction that finishes it.
- **Credits** are debited at create time, in the same transaction that stores the request; the price comes from the
  operation manifest's credit rule alone. Operations whose manifest has a settle rule (\`video.upscale\`,
  \`lipsync.generate\`) are re-priced by the same rule from the usage the vendor measured (\`output.usage\`) when they
  finish: the difference is refunded, or charged if the balance allows (else the quote stands); \`output.exact_cost_credits\`
  says what the rule gave. A single request's answer lists its ledger entries (\`credits\`). Status and poll calls spend nothing.
- **Polling**: \`poll_after_ms\` is the first check delay of the operation's polling strategy for the provider serving
  the request (manifest \`polling\`, with \`polling.providers.<id>\` over it: the offline \`local\` renderer is told as
  its render time); the create answer, the MCP create tool and the request object (while queued or processing) give
  the same value. The request object carries \`urls.get\`.
- **Waiting instead of polling**: \`Prefer: wait=N\` (RFC 7240, N at most 60 s) on \`GET /api/v1/requests/{id}\`
  holds the poll until the request succeeds or fails and answers at that moment (at once if it already has); out of time
  it answers with the current state. Every poll answer carries a weak \`ETag\` of the request's state (\`Cache-Control:
  private, no-cache\`): with \`If-None-Match\` the poll answers 304 without a body while nothing changed, and with both
  headers it is held until the state differs from the one the client holds (304 when the wait ends first).
  \`Preference-Applied: wait=N\` says the wait was honoured; an API process that holds \`watches.max_per_process\` waits
  answers at once without it. \`GET /api/v1/requests/{id}/events\` streams the request's states as server-sent events
  (each the poll's answer, \`id:\` its state tag), ending after the terminal one; \`Last-Event-ID\` resumes without
  repeats, and 204 tells a client that holds the terminal state to stop. Waiters wake from change notices (a RabbitMQ
  fanout across processes), never from a query per waiter; a slow batched re-check covers lost notices.
- **Hosted files** are served at \`{public_url}/files/...\` without an API key (unguessable paths, like CDN URLs), with
  \`Content-Length\` and byte ranges, for the 7-day retention period.
- **Beyond the spec**: \`GET /api/v1/requests\` lists the key's requests (cursor pages, filters),
  \`POST /api/v1/requests/{id}/cancel\` cancels a queued or processing request (a local render or an upload under way
  is stopped, in whichever worker process runs it, a vendor task cancelled where supported,
  request failed with "the request was cancelled by the client", full refund), \`POST /api/v1/estimates\` prices a
  create without writing anything, and \`Prefer: wait=N\` (at most 60 s) on create answers with the finished request.
- **Webhooks** follow Standard Webhooks: headers \`webhook-id\` (the same on every attempt of one delivery),
  \`webhook-timestamp\`, \`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">\` (two signatures while a
  rotated secret is in its grace window); body \`{type: "request.succeeded" | "request.failed", timestamp, data: <request
  object>}\`. The delivery is written in the same transaction as the terminal state (outbox), retried after 5 s, 5 min,
  30 min, 2 h, 5 h, 10 h, 10 h, 14 h and 24 h (about 3 days; a later \`Retry-After\` wins), 15 s timeout, redirects count
  as failures, 410 disables. URLs must resolve to public unicast addresses (allow-list for local development);
  production requires https. \`POST /api/v1/webhooks/test\` is rate-limited per key and answers only
  \`{id, delivered, statusCode}\`.
- **Fetched URLs** (source media, vendor outputs, webhooks) must be http(s) without credentials and resolve to public
  unicast addresses; the connection is pinned to the checked address and every redirect (at most 3) is checked again.
  A URL that is refused or unreachable fails the request (refunded) with \`could not fetch <field>: the URL is not
  reachable from this service\`, the same text either way.
- **Vendor submissions** are sent at most once: when the outcome of a submission is unknown (timeout after the bytes
  left, reset connection, 5xx other than 503) the gateway looks the job up at the vendor where it can, and otherwise
  fails the request with a full refund; it never resends it or falls back to another provider.
- **Who served a request**: \`output.provider\` is always the plugin that served it, and when the offline \`local\`
  provider served it \`output.model\` names its renderer (\`local-image\`, \`local-video\`, \`local-prompt-template\`...),
  never the vendor model the request was routed to (that stays in \`input\`); in production a synthetic provider
  never stands in for a vendor (503 \`MG_PROVIDER_UNAVAILABLE\` at create when no vendor can serve the model).
- **Rate limits**: per key and minute, creates and reads apart; \`RateLimit-Limit\`, \`RateLimit-Remaining\`,
  \`RateLimit-Reset\` on every answer; 429 \`MG_RATE_LIMITED\` with \`Retry-After\` past the limit; shared across API
  processes on a MySQL store.
- **Retention**: input, output, hosted files and webhook payloads are removed 7 days after creation; the request row
  stays with \`dataRemovedAtMs\`.
- **Deprecation**: legacy operations and model values answer with an RFC 9745 \`Deprecation\` header (an RFC 9651
  sf-date, \`@<unix seconds>\`, from the manifest's \`since\`), \`Link: <https://mediagate.dev/docs/deprecations>;
  rel="deprecation"; type="text/html"\`, an RFC 8594 \`Sunset\` HTTP-date where the end is planned, and a
  \`Mediagate-Deprecation-Notice\` header naming the replacement.
- **401** carries \`WWW-Authenticate: ApiKey realm="mediagate"\` (RFC 9110 requires a challenge; the scheme names the
  \`x-api-key\` header), with \`error="invalid_key"\` when a key was sent but is unknown or revoked.
- **Bounds on bodies**: at most 32 levels of nesting and 262 144 characters per string, finite numbers, well-formed
  Unicode, no \`__proto__\` and no repeated key in an object: otherwise 422 with the field's pointer; a body that is not
  UTF-8 is 400. Headers and body must each arrive within 10 s (configurable), otherwise 408 \`MG_REQUEST_TIMEOUT\`
  and the connection is closed.
- **Operator endpoints**: \`/metrics\` answers loopback peers only (404 to others) unless a bearer token or a port of
  its own is configured; \`/healthz\` names each component's state with a short reason, never the driver's text.
`;
