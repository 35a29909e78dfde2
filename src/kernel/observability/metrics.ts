/**
 * Prometheus metrics (prom-client), one registry per gateway so tests and several gateways in one process
 * do not collide. Exposed at `/metrics` by the API and by a worker's health port.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requestsCreated = new Counter({ name: 'mediagate_requests_created_total', help: 'Requests accepted by the create endpoint', labelNames: ['operation'], registers: [this.registry] });
  readonly requestsFinished = new Counter({ name: 'mediagate_requests_finished_total', help: 'Requests that reached a terminal state', labelNames: ['operation', 'status'], registers: [this.registry] });
  readonly requestDuration = new Histogram({
    name: 'mediagate_request_duration_seconds',
    help: 'Create to terminal state',
    labelNames: ['operation', 'status'],
    buckets: [0.05, 0.25, 1, 5, 15, 60, 300, 900, 3600],
    registers: [this.registry],
  });
  readonly providerCalls = new Counter({ name: 'mediagate_provider_calls_total', help: 'Calls into provider plugins', labelNames: ['provider', 'outcome'], registers: [this.registry] });
  readonly breakerOpen = new Gauge({ name: 'mediagate_breaker_open', help: '1 while a provider circuit breaker is open', labelNames: ['provider'], registers: [this.registry] });
  readonly httpDuration = new Histogram({
    name: 'mediagate_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  /** `/mcp` JSON-RPC messages by method (known MCP methods only, the rest as `other`: clients choose the name). */
  readonly mcpMessages = new Counter({ name: 'mediagate_mcp_messages_total', help: 'JSON-RPC messages received on /mcp', labelNames: ['method'], registers: [this.registry] });
  /** Outcome: `ok`, `tool_error` (a failed call the model reads), `internal_error`, `unauthenticated` (refused with 401). */
  readonly mcpToolCalls = new Counter({ name: 'mediagate_mcp_tool_calls_total', help: 'MCP tool calls by tool and outcome', labelNames: ['tool', 'outcome'], registers: [this.registry] });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }
}
