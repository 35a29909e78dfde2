/**
 * Runs the service in one of three roles:
 *   all    — the embedded single process: HTTP API, worker and sweeper (dev account on first SQLite start);
 *   api    — HTTP API only: validates, writes and publishes; never runs provider work;
 *   worker — consumes jobs and sweeps; serves no API (only /healthz and /metrics on worker.health_port if set).
 * SIGTERM/SIGINT: stop accepting, let in-flight work finish within worker.shutdown_timeout_ms, close pools.
 */
import type { Server } from 'node:http';
import { ensureDevAccount, type DevAccountResult } from '../kernel/accounts/dev-account.js';
import type { Settings } from '../kernel/config/index.js';
import { createGateway, type Gateway, type GatewayOptions } from '../kernel/gateway.js';
import { createHttpApp, createMetricsApp, createWorkerHealthApp } from '../http/app.js';
import { knowledgeFor } from '../mcp/knowledge/index.js';
import { createHttpServer } from '../http/http-server.js';
import type Koa from 'koa';

export type Role = 'all' | 'api' | 'worker';

export interface RunningService {
  gateway: Gateway;
  role: Role;
  server?: Server;
  /** The separate `/metrics` listener when `metrics.port` is set. */
  metricsServer?: Server;
  metricsUrl?: string;
  /** The base URL the HTTP server listens on (port 0 picks a free one); absent for a worker without health port. */
  url: string;
  devKey?: DevAccountResult;
  stop(): Promise<void>;
}

export async function startService(settings: Settings, options: GatewayOptions & { role?: Role } = {}): Promise<RunningService> {
  const role = options.role ?? 'all';
  const gateway = await createGateway(settings, options);
  let devKey: RunningService['devKey'];
  if (role === 'all' && gateway.database.dialect === 'sqlite') {
    devKey = await ensureDevAccount({ accounts: gateway.accounts, apiKeys: gateway.apiKeys, users: gateway.users, dataDir: settings.data_dir, account: settings.dev_account, clock: gateway.clock });
  }
  let server: Server | undefined;
  let url = '';
  let metrics: { server: Server; url: string } | undefined;
  try {
    if (role !== 'worker') {
      // The MCP knowledge registry is built before listening: a bad knowledge file or a foreign checkout link
      // stops the start instead of surfacing on the first tool call.
      await knowledgeFor(gateway);
      ({ server, url } = await listen(createHttpApp(gateway, role), settings));
    } else if (settings.worker.health_port > 0) {
      ({ server, url } = await listen(createWorkerHealthApp(gateway), settings, settings.worker.health_port));
    }
    metrics = settings.metrics.port > 0 ? await listen(createMetricsApp(gateway), settings, settings.metrics.port) : undefined;
    // The worker (or its thread, which may fail to start: a plugin it cannot load) before the start is reported.
    if (role !== 'api') await gateway.startWorking();
  } catch (error) {
    // A port already taken (EADDRINUSE), a worker that cannot start: nothing is served, so nothing stays open
    // either (the listeners, the store, the queue).
    server?.close();
    metrics?.server.close();
    await gateway.close();
    throw error;
  }
  const servers = [server, metrics?.server].filter((item): item is Server => item !== undefined);
  let stopping: Promise<void> | undefined;
  return {
    gateway,
    role,
    server,
    metricsServer: metrics?.server,
    metricsUrl: metrics?.url,
    url,
    devKey,
    stop() {
      stopping ??= (async () => {
        const closed = servers.map((each) => new Promise<void>((resolve) => each.close(() => resolve())));
        for (const each of servers) each.closeIdleConnections();
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, settings.worker.shutdown_timeout_ms).unref());
        await Promise.race([Promise.all([...closed, gateway.close()]), deadline]);
        for (const each of servers) each.closeAllConnections();
      })();
      return stopping;
    },
  };
}

async function listen(app: Koa, settings: Settings, port = settings.server.port): Promise<{ server: Server; url: string }> {
  const { host } = settings.server;
  const server = createHttpServer(app, settings.server);
  server.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Keep-alive longer than typical load balancers' idle timeout, so they never reuse a closed socket.
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { server, url: `http://${host}:${actual}` };
}
