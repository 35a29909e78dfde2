/**
 * A real mediagate service for tests: real HTTP on a free port, real SQLite in a temp folder, the real
 * plugins, plus whatever extra manifest and plugin folders a test brings. Nothing is mocked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadSettings, type DeepPartial, type Settings } from '../../src/kernel/config/index.js';
import { newId, type Scope } from '../../src/kernel/store/index.js';
import { startService, type RunningService } from '../../src/cli/serve.js';
import { freePort } from './free-port.js';

export interface TestService {
  url: string;
  service: RunningService;
  dataDir: string;
  /** Creates an account with `credits` and a key with `scopes`; returns the plaintext key and ids. */
  createKey(options?: { credits?: number; scopes?: Scope[]; name?: string }): Promise<{ key: string; accountId: string; keyId: string }>;
  api(method: string, path: string, options?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** How the service is started besides its settings: a configuration profile's environment, a test clock. */
export interface TestServiceOptions {
  /** Environment the settings are read from, e.g. `{ MEDIAGATE_ENV: 'production' }` (default: none). */
  env?: NodeJS.ProcessEnv;
  clock?: { now(): number };
}

export async function startTestService(overrides: DeepPartial<Settings> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-test-'));
  const settingsOn = (port: number) =>
    loadSettings({
      env: options.env ?? {},
      overrides: {
        ...overrides,
        server: { host: '127.0.0.1', port, public_url: '', ...overrides.server },
        data_dir: dataDir,
        log: { level: 'silent' },
        // The worker runs in the test's own thread unless a test asks for its thread (worker.thread): a test's
        // clock and its look at the worker's state need it there, and a thread per service would slow the suite.
        worker: { sweep_interval_ms: 200, requeue_after_ms: 1000, retry_after_ms: 200, thread: false, ...overrides.worker },
      },
    });
  // The port is picked before the service starts (its public URL names it), so another process, or an outgoing
  // connection's ephemeral port, may take it in between: then the start is tried again on another free port.
  let service: RunningService | undefined;
  let settings!: Settings;
  for (let attempt = 1; !service; attempt += 1) {
    settings = settingsOn(await freePort());
    try {
      service = await startService(settings, { log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), clock: options.clock });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
  const url = service.url;

  const api: TestService['api'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers['x-api-key'] = options.key;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed };
  };

  return {
    url,
    service,
    dataDir,
    api,
    async createKey(options = {}) {
      const { accounts, apiKeys, clock } = service.gateway;
      const accountId = newId('acct', clock.now());
      await accounts.createAccount({ id: accountId, email: 'test@example.com', plan: 'test', creditsBalance: options.credits ?? 1000, createdAtMs: clock.now() });
      const { plaintext, record } = await apiKeys.create(accountId, options.name ?? 'test key', options.scopes ?? ['requests:read', 'requests:write']);
      return { key: plaintext, accountId, keyId: record.id };
    },
    async stop() {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls a request until it is terminal (or the deadline passes), the way a client would. */
export async function pollUntilTerminal(service: TestService, key: string, id: string, deadlineMs = 60_000): Promise<any> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const response = await service.api('GET', `/api/v1/requests/${id}`, { key });
    if (response.status !== 200) throw new Error(`poll ${id}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
    if (response.body.status === 'succeeded' || response.body.status === 'failed') return response.body;
    if (Date.now() > until) throw new Error(`request ${id} still ${response.body.status} after ${deadlineMs} ms: ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
