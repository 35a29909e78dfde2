/**
 * A real PluginContext for plugin tests, without the kernel: blobs live in a temporary folder and
 * are served as `http://fake.local/files/<key>`; `fetchInput` reads back what the context stored
 * (or `file://` paths) and enforces `maxBytes` like the real blob store.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createVendorHttp, type HostedFile, type PluginBlobs, type PluginContext } from '../../src/kernel/plugin-sdk/index.js';

export const FAKE_STORAGE_URL = 'http://fake.local/files';

export interface FakePluginContextOptions<Config> {
  config?: Config;
  requestId?: string;
  operation?: string;
  signal?: AbortSignal;
  /** Fixed clock value; defaults to the real clock. */
  now?: number;
}

export interface FakePluginContext<Config> extends PluginContext<Config> {
  /** Waits the vendor HTTP client would have slept before retrying, in order (ms). */
  sleeps: number[];
  /** Temporary folder holding stored blobs, scratch folders and the state folder (`state`). */
  root: string;
  /** Every file stored through `blobs`, in order. */
  hosted: HostedFile[];
  /** Path on disk of a URL this context hosted. */
  pathOf(url: string): string;
  /** Stores a copy of a local file as if a client had uploaded it and returns its URL. */
  upload(path: string, contentType: string): Promise<string>;
  /** Removes the temporary folder. */
  cleanup(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.glb': 'model/gltf-binary',
  '.json': 'application/json',
};

export async function createFakePluginContext<Config = Record<string, unknown>>(
  options: FakePluginContextOptions<Config> = {},
): Promise<FakePluginContext<Config>> {
  const root = await mkdtemp(join(tmpdir(), 'mediagate-plugin-test-'));
  const filesDir = join(root, 'files');
  await mkdir(filesDir);
  const stored = new Map<string, { path: string; contentType: string }>();
  const hosted: HostedFile[] = [];
  const requestId = options.requestId ?? `req_${randomBytes(6).toString('hex')}`;

  const host = async (path: string, contentType: string, extension: string, move: boolean): Promise<HostedFile> => {
    const key = `${requestId}/${randomBytes(8).toString('hex')}.${extension.replace(/^\./, '')}`;
    const target = join(filesDir, key.replace('/', '_'));
    // The real store may move the file; moving here catches plugins that use a file after hosting it.
    if (move) await rename(path, target);
    else await copyFile(path, target);
    const file: HostedFile = { url: `${FAKE_STORAGE_URL}/${key}`, key, contentType, size: (await stat(target)).size };
    stored.set(file.url, { path: target, contentType });
    hosted.push(file);
    return file;
  };

  const blobs: PluginBlobs = {
    async put(bytes, contentType, extension) {
      const path = join(root, `put-${randomBytes(6).toString('hex')}`);
      await writeFile(path, bytes);
      return host(path, contentType, extension, true);
    },
    putFile: (path, contentType, extension) => host(path, contentType, extension, true),
    async rehost(url, rehostOptions) {
      const fetched = await blobs.fetchInput(url);
      const contentType = rehostOptions?.contentType ?? fetched.contentType;
      return blobs.put(fetched.bytes, contentType, rehostOptions?.extension ?? (extname(url).slice(1) || 'bin'));
    },
    async fetchInput(url, fetchOptions) {
      const known = stored.get(url);
      let path: string;
      let contentType: string;
      if (known) {
        ({ path, contentType } = known);
      } else if (url.startsWith('file://')) {
        path = fileURLToPath(url);
        contentType = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
      } else {
        throw new Error(`fake blob store cannot fetch ${url}`);
      }
      const size = (await stat(path)).size;
      if (fetchOptions?.maxBytes !== undefined && size > fetchOptions.maxBytes) {
        throw new Error(`${url} is ${size} bytes, more than the ${fetchOptions.maxBytes} allowed`);
      }
      return { bytes: await readFile(path), contentType };
    },
    async fetchInputToFile(url, path, fetchOptions) {
      const { bytes, contentType } = await blobs.fetchInput(url, fetchOptions);
      await writeFile(path, bytes);
      return { size: bytes.length, contentType };
    },
  };

  let scratchCounter = 0;
  const signal = options.signal ?? new AbortController().signal;
  // Retry waits are recorded, not slept: tests assert the schedule (e.g. Retry-After) without waiting for it.
  const sleeps: number[] = [];
  return {
    http: (httpOptions) => createVendorHttp(httpOptions, signal, async (ms) => void sleeps.push(ms)),
    sleeps,
    requestId,
    operation: options.operation ?? 'test.operation',
    config: options.config ?? ({} as Config),
    blobs,
    log: pino({ level: 'silent' }),
    signal,
    clock: { now: () => options.now ?? Date.now() },
    async scratchDir() {
      scratchCounter += 1;
      const dir = join(root, `scratch-${scratchCounter}`);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    async stateDir() {
      const dir = join(root, 'state');
      await mkdir(dir, { recursive: true });
      return dir;
    },
    root,
    hosted,
    pathOf(url) {
      const known = stored.get(url);
      if (!known) throw new Error(`${url} was not hosted by this context`);
      return known.path;
    },
    async upload(path, contentType) {
      return (await host(path, contentType, extname(path).slice(1) || 'bin', false)).url;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
