/**
 * mediagate as the embedded scenarios run it: `mediagate start all` (SQLite, in-process queue and worker) in a
 * child process, with the test fixtures' `test.echo` manifest and its instant provider, and one API key with
 * credits enough for any run.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../test/support/free-port.js';
import { root, stop, waitForHttp, type RequestApiTarget } from './bench-kit.js';

export interface EmbeddedGateway extends RequestApiTarget {
  pid: number;
  /** The API key `headers` carry. */
  key: string;
  stop(): Promise<void>;
}

/**
 * `env` adds or overrides settings (e.g. MEDIAGATE_WORKER_CONCURRENCY) for a scenario that needs them; `nodeOptions`
 * go to the server's node before the script (e.g. `--cpu-prof` for a profiled run).
 */
export async function startEmbeddedGateway(env: Record<string, string> = {}, nodeOptions: string[] = []): Promise<EmbeddedGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-bench-'));
  const port = await freePort();
  const childEnv = {
    ...process.env,
    PORT: String(port),
    MEDIAGATE_DATA_DIR: dataDir,
    MEDIAGATE_LOG_LEVEL: 'warn',
    MEDIAGATE_MANIFEST_DIRS: join(root, 'test/fixtures/manifests'),
    MEDIAGATE_PLUGIN_DIRS: join(root, 'test/fixtures/plugins'),
    ...env,
  };
  const cli = join(root, 'bin/mediagate.js');
  const child = spawn(process.execPath, [...nodeOptions, cli, 'start', 'all'], { env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const stopAndClean = async () => {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    // Healthy once its worker is ready too (a worker thread starts after the HTTP side listens).
    await waitForHttp(`${url}/healthz`, { healthy: true });
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'keys', 'create', '--name', 'bench', '--credits', '1000000000', '--json'], { env: childEnv });
    const key = JSON.parse(stdout).key as string;
    return {
      url,
      pid: child.pid!,
      key,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      // SQLite and the worker run inside this process: its CPU is the whole server side.
      components: [{ name: 'server process', pids: [child.pid!] }],
      stop: stopAndClean,
    };
  } catch (error) {
    await stopAndClean();
    throw error;
  }
}
