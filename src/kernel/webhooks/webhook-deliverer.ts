/**
 * Delivers the webhook outbox. A delivery is claimed by a conditional update (several workers can run this),
 * signed per attempt (Standard Webhooks headers), and POSTed through the guarded fetch (public addresses
 * only) with a 15 s timeout and no redirects. 2xx: delivered. 410: the endpoint is gone, disabled. Anything
 * else (3xx, 4xx, 5xx, timeout, unreachable): retried on the schedule — about three days in all — or later
 * when the receiver's `Retry-After` says so; then failed. A URL refused by the address policy is recorded
 * exactly like an unreachable one, so the deliveries log does not tell whether an internal host exists.
 */
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../observability/metrics.js';
import { spanNames, traceAttributes, tracing, type TraceSpan } from '../observability/tracing.js';
import { OutboundFetchError, type GuardedFetch } from '../plugin-sdk/guarded-fetch.js';
import { parseRetryAfter } from '../plugin-sdk/vendor-http.js';
import type { WebhookUrlRules } from './url-guard.js';
import type { WebhookSecrets } from './webhook-secrets.js';
import { signWebhook } from './webhook-signing.js';
import type { DeliveryState, DueDelivery, WebhookStore } from './webhook-store.js';

export interface WebhookSettings {
  require_https: boolean;
  timeout_ms: number;
  poll_interval_ms: number;
  /** Waits after each failed attempt; its length + 1 is the number of attempts. */
  retry_schedule_ms: number[];
  rotation_grace_ms: number;
  /** Budget of `POST /api/v1/webhooks/test` per API key and minute. */
  test_sends_per_minute: number;
}

/** Receivers' answers are not read; a little is allowed through before the stream is cut. */
const maxReceiverAnswerBytes = 64 * 1024;

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  retryAfterSeconds?: number;
}

export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly deps: {
      store: WebhookStore;
      secrets: WebhookSecrets;
      clock: { now(): number };
      settings: WebhookSettings;
      log: Logger;
      outbound: GuardedFetch;
      /** `outbound.allow_hosts`: these may use plain http where https is required. */
      urlRules: WebhookUrlRules;
      metrics?: GatewayMetrics;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.deliverDue()
        .catch((error) => this.deps.log.error({ err: error }, 'webhook delivery pass failed'))
        .finally(() => (this.running = undefined));
    }, this.deps.settings.poll_interval_ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass over due deliveries. */
  async deliverDue(): Promise<number> {
    const { store, clock, settings } = this.deps;
    const due = await store.due(clock.now(), 50);
    let sent = 0;
    await Promise.all(
      due.map(async (delivery) => {
        if (!(await store.claim(delivery.id, delivery.nextAttemptAtMs!, clock.now() + settings.timeout_ms + 5000))) return;
        // Each attempt continues the trace of its request's create (the webhook tells the end of that request); a
        // request created with tracing off has none, and its attempt is a trace of its own.
        const attributes = { [traceAttributes.requestId]: delivery.requestId, [traceAttributes.deliveryId]: delivery.id, [traceAttributes.deliveryAttempt]: delivery.attempts + 1 };
        await tracing.inSpan(spanNames.webhookDelivery, { kind: 'producer', parent: delivery.traceContext, attributes }, (span) => this.attemptAndRecord(delivery, span));
        sent += 1;
      }),
    );
    return sent;
  }

  private async attemptAndRecord(delivery: DueDelivery, span: TraceSpan): Promise<void> {
    const { store, clock, settings, log } = this.deps;
    const attemptedAtMs = clock.now();
    const startedAt = performance.now();
    const result = await this.send(delivery.accountId, delivery.id, delivery.url, delivery.payload);
    const seconds = (performance.now() - startedAt) / 1000;
    const attemptNumber = delivery.attempts + 1;
    let state: DeliveryState;
    let nextAttemptAtMs: number | null = null;
    if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) state = 'delivered';
    else if (result.statusCode === 410) state = 'disabled';
    else if (result.error?.startsWith('blocked:') || attemptNumber > settings.retry_schedule_ms.length) state = 'failed';
    else {
      state = 'pending';
      const wait = Math.max(settings.retry_schedule_ms[attemptNumber - 1], (result.retryAfterSeconds ?? 0) * 1000);
      nextAttemptAtMs = clock.now() + wait;
    }
    span.setAttributes({ [traceAttributes.deliveryState]: state });
    await store.recordAttempt(delivery.id, { attemptedAtMs, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs }, { state, nextAttemptAtMs });
    this.deps.metrics?.webhookAttempt(state === 'delivered' ? 'delivered' : state === 'pending' ? 'failed_attempt' : 'gave_up', seconds);
    log.info({ requestId: delivery.requestId, deliveryId: delivery.id, attempt: attemptNumber, statusCode: result.statusCode, state }, 'webhook attempt');
  }

  /** One signed POST; never throws. Also the test-send endpoint. */
  async send(accountId: string, id: string, url: string, body: string): Promise<AttemptResult> {
    const { secrets, settings, clock, outbound } = this.deps;
    const started = clock.now();
    const problem = this.deps.urlRules.problem(url);
    if (problem) return { statusCode: null, error: `blocked: webhook URL ${problem}`, durationMs: 0 };
    const timestamp = Math.floor(clock.now() / 1000);
    const signatures = (await secrets.signing(accountId)).map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
    try {
      const response = await outbound(url, {
        method: 'POST',
        maxRedirects: 0,
        maxBytes: maxReceiverAnswerBytes,
        timeoutMs: settings.timeout_ms,
        headers: { 'content-type': 'application/json', 'user-agent': 'mediagate-webhooks/1', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures },
        body,
      });
      response.body.destroy();
      const ok = response.status >= 200 && response.status < 300;
      const retryAfter = response.headers['retry-after'];
      return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: clock.now() - started, retryAfterSeconds: parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : null) };
    } catch (error) {
      // The precise reason is in the server log (guarded fetch); the attempt log is visible to the client.
      const timedOut = error instanceof OutboundFetchError && error.failure === 'timeout';
      return { statusCode: null, error: timedOut ? `timed out after ${settings.timeout_ms} ms` : 'not reachable from this service', durationMs: clock.now() - started };
    }
  }
}
