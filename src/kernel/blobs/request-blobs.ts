/**
 * The `ctx.blobs` a plugin gets: hosts files under the request's own folder (so retention can remove a
 * request's media in one go) and reads input URLs, our own (hosted files and the shipped samples) straight from
 * the store, any other through the guarded fetch (public addresses only, capped, streamed).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HostedFile, InputFetchOptions, PluginBlobs } from '../plugin-sdk/contract.js';
import { createGuardedFetch, OutboundFetchError, unreachableMessage, type GuardedFetch } from '../plugin-sdk/guarded-fetch.js';
import { ProviderError } from '../plugin-sdk/provider-error.js';
import type { BlobStore } from './blob-port.js';
import { contentTypeForKey, extensionForContentType } from './content-types.js';
import { isSampleName, sampleKey, samplesBaseUrl } from './sample-media.js';

const defaultMaxInputBytes = 100 * 1024 * 1024;
/** Vendor outputs (long videos, 3D scenes) may be far larger than client inputs. */
const defaultMaxRehostBytes = 4 * 1024 * 1024 * 1024;

/** Without a configured one (plugin tests), the strictest guard: no allow-list. */
const strictGuardedFetch = createGuardedFetch();

export interface RequestBlobsOptions {
  store: BlobStore;
  /** Base of hosted URLs, e.g. `http://127.0.0.1:8080`; files live under `/files/`. */
  publicUrl: string;
  requestId: string;
  provider: string;
  signal?: AbortSignal;
  fetchTimeoutMs?: number;
  /** The gateway's guarded fetch (with the operator's allow-list). */
  outbound?: GuardedFetch;
}

export function filesBaseUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/files/`;
}

export function createRequestBlobs(options: RequestBlobsOptions): PluginBlobs {
  const base = filesBaseUrl(options.publicUrl);
  const newKey = (extension: string) => `${options.requestId}/${randomBytes(8).toString('hex')}.${extension.replace(/^\./, '')}`;
  const hosted = (key: string, size: number, contentType: string): HostedFile => ({ url: base + key, key, contentType, size });
  const samplesBase = samplesBaseUrl(options.publicUrl);
  const ownKey = (url: string): string | undefined => {
    const pathAfter = (prefix: string) => decodeURIComponent(url.slice(prefix.length).split(/[?#]/)[0]);
    if (url.startsWith(base)) return pathAfter(base);
    // The shipped samples (sample-media.ts) sit in the store too; only a plain name maps to one.
    if (url.startsWith(samplesBase) && isSampleName(pathAfter(samplesBase))) return sampleKey(pathAfter(samplesBase));
    return undefined;
  };

  /** Our own file, checked against the cap; a missing one is the client's problem (retention removed it). */
  const ownFile = async (key: string, url: string, maxBytes: number, what: string) => {
    const info = await options.store.stat(key);
    if (!info) throw permanent(options.provider, `${what} (${url}) does not exist (it may have been removed by retention)`);
    if (info.size > maxBytes) throw permanent(options.provider, `${what} is ${info.size} bytes, more than the ${maxBytes} allowed`);
    return info;
  };

  /** Streams a remote URL into `sink`; every failure becomes a ProviderError a client may read. */
  const fetchRemote = async (url: string, sink: Writable, maxBytes: number, what: string): Promise<{ contentType: string }> => {
    const outbound = options.outbound ?? strictGuardedFetch;
    try {
      const response = await outbound(url, { maxBytes, timeoutMs: options.fetchTimeoutMs ?? 60_000, signal: options.signal });
      if (response.status < 200 || response.status >= 300) {
        response.body.destroy();
        throw new ProviderError(`could not fetch ${what}: HTTP ${response.status}`, {
          provider: options.provider,
          retryable: ProviderError.isRetryableStatus(response.status),
          vendorStatus: response.status,
        });
      }
      await pipeline(response.body, sink);
      return { contentType: response.headers['content-type']?.split(';')[0].trim() || 'application/octet-stream' };
    } catch (error) {
      // Anything else (the local disk) is ours, not the URL's; the kernel classifies it.
      if (!(error instanceof OutboundFetchError)) throw error;
      throw permanent(options.provider, describeFailure(error, what, maxBytes));
    }
  };

  const blobs: PluginBlobs = {
    async put(bytes, contentType, extension) {
      const key = newKey(extension);
      await options.store.put(key, bytes, contentType);
      return hosted(key, bytes.length, contentType);
    },
    async putFile(path, contentType, extension) {
      const key = newKey(extension);
      const { size } = await stat(path);
      await options.store.putFile(key, path, contentType);
      return hosted(key, size, contentType);
    },
    async rehost(url, rehostOptions = {}) {
      const dir = await mkdtemp(join(tmpdir(), 'mediagate-rehost-'));
      try {
        const path = join(dir, 'download');
        const { contentType } = await blobs.fetchInputToFile(url, path, { maxBytes: rehostOptions.maxBytes ?? defaultMaxRehostBytes });
        const type = rehostOptions.contentType ?? contentType;
        return await blobs.putFile(path, type, rehostOptions.extension ?? extensionForContentType(type));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async fetchInput(url, fetchOptions = {}) {
      const { maxBytes, what } = limits(url, fetchOptions);
      const key = ownKey(url);
      if (key !== undefined) {
        await ownFile(key, url, maxBytes, what);
        return { bytes: await options.store.readAll(key), contentType: contentTypeForKey(key) };
      }
      const chunks: Buffer[] = [];
      const collect = new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      });
      const { contentType } = await fetchRemote(url, collect, maxBytes, what);
      return { bytes: Buffer.concat(chunks), contentType };
    },
    async fetchInputToFile(url, path, fetchOptions = {}) {
      const { maxBytes, what } = limits(url, fetchOptions);
      const key = ownKey(url);
      if (key !== undefined) {
        const info = await ownFile(key, url, maxBytes, what);
        await pipeline(await options.store.read(key), createWriteStream(path));
        return { size: info.size, contentType: contentTypeForKey(key) };
      }
      // An empty file first: a failed download leaves nothing half-written that looks like an input.
      await writeFile(path, '');
      try {
        const { contentType } = await fetchRemote(url, createWriteStream(path), maxBytes, what);
        return { size: (await stat(path)).size, contentType };
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
    },
  };
  return blobs;
}

/** The cap, and how errors name the input: its field where the plugin said, else the URL the plugin was given. */
function limits(url: string, fetchOptions: InputFetchOptions): { maxBytes: number; what: string } {
  return { maxBytes: fetchOptions.maxBytes ?? defaultMaxInputBytes, what: fetchOptions.field ?? url };
}

function describeFailure(error: OutboundFetchError, what: string, maxBytes: number): string {
  switch (error.failure) {
    case 'too_large':
      return error.declaredBytes === undefined ? `${what} is larger than the ${maxBytes} bytes allowed` : `${what} is ${error.declaredBytes} bytes, more than the ${maxBytes} allowed`;
    case 'timeout':
      return `could not fetch ${what}: it did not arrive in time`;
    case 'too_many_redirects':
      return `could not fetch ${what}: too many redirects`;
    default:
      return unreachableMessage(what);
  }
}

function permanent(provider: string, message: string): ProviderError {
  return new ProviderError(message, { provider, retryable: false });
}
