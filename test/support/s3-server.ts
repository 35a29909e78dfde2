/**
 * A throwaway S3 endpoint for tests: s3rver (a fake S3 for node) on 127.0.0.1, on a port the OS picks,
 * with a fresh bucket and a fresh data folder per start, both gone after `stop()`.
 *
 * It runs as a child process because s3rver 3.x encrypts ListObjectsV2 continuation tokens with DES,
 * which OpenSSL 3 (Node 17+) only offers through its legacy provider: in-process, every truncated
 * listing is a 500. `--openssl-legacy-provider` on the child fixes that without touching the test process.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: pass as the client endpoint, with path-style addressing. */
  endpoint: string;
  bucket: string;
  /** s3rver checks request signatures against this fixed key pair. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

const s3rverBin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
const startTimeoutMs = 15_000;

export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'mediagate-s3rver-'));
  const bucket = `mediagate-test-${randomBytes(4).toString('hex')}`;
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', s3rverBin, '--directory', directory, '--address', '127.0.0.1', '--port', '0', '--silent', '--configure-bucket', bucket],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Should the test process end without stop(), do not leave the server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let port: number;
  try {
    port = await listeningPort(child.stdout, child.stderr, exited);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    process.off('exit', killOnExit);
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Waits for the line `S3rver listening on 127.0.0.1:<port>` that the s3rver command prints once bound. */
function listeningPort(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream, exited: Promise<void>): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    const timer = setTimeout(() => reject(new Error(`s3rver did not start within ${startTimeoutMs} ms: ${errors || output}`)), startTimeoutMs);
    stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on [^\s:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited before listening: ${errors || output}`));
    });
  });
}
