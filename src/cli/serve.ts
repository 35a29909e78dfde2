/**
 * `mediagate start all`: the embedded single process — HTTP API, worker and sweeper together — with the
 * development account bootstrapped on first start. Stops gracefully on SIGINT/SIGTERM.
 */
import type { Server } from 'node:http';
import { ensureDevAccount } from '../kernel/accounts/dev-account.js';
import type { Settings } from '../kernel/config/index.js';
import { createGateway, type Gateway, type GatewayOptions } from '../kernel/gateway.js';
import { createHttpApp } from '../http/app.js';

export interface RunningService {
  gateway: Gateway;
  server: Server;
  /** The base URL the server actually listens on (port 0 picks a free one). */
  url: string;
  devKey?: { created: boolean; keyFile: string; plaintext?: string };
  stop(): Promise<void>;
}

export async function startService(settings: Settings, options: GatewayOptions = {}): Promise<RunningService> {
  const gateway = await createGateway(settings, options);
  let devKey: RunningService['devKey'];
  if (gateway.database.dialect === 'sqlite') {
    devKey = await ensureDevAccount({ accounts: gateway.accounts, apiKeys: gateway.apiKeys, dataDir: settings.data_dir, account: settings.dev_account, clock: gateway.clock });
  }
  const app = createHttpApp(gateway);
  const server = app.listen(settings.server.port, settings.server.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Keep-alive longer than typical load balancers' idle timeout, so they never reuse a closed socket.
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.server.port;
  await gateway.startWorking();
  return {
    gateway,
    server,
    url: `http://${settings.server.host}:${port}`,
    devKey,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await gateway.close();
    },
  };
}
