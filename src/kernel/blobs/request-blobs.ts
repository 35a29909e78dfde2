/**
 * The `ctx.blobs` a plugin gets: hosts files under the request's own folder (so retention can remove a
 * request's media in one go) and reads input URLs, our own straight from the store.
 */
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { HostedFile, PluginBlobs } from '../plugin-sdk/contract.js';
import { ProviderError } from '../plugin-sdk/provider-error.js';
import type { BlobStore } from './blob-port.js';
import { contentTypeForKey, extensionForContentType } from './content-types.js';

const defaultMaxInputBytes = 100 * 1024 * 1024;

export interface RequestBlobsOptions {
  store: BlobStore;
  /** Base of hosted URLs, e.g. `http://127.0.0.1:8080`; files live under `/files/`. */
  publicUrl: string;
  requestId: string;
  provider: string;
  signal?: AbortSignal;
  fetchTimeoutMs?: number;
}

export function filesBaseUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/files/`;
}

export function createRequestBlobs(options: RequestBlobsOptions): PluginBlobs {
  const base = filesBaseUrl(options.publicUrl);
  const newKey = (extension: string) => `${options.requestId}/${randomBytes(8).toString('hex')}.${extension.replace(/^\./, '')}`;
  const hosted = (key: string, size: number, contentType: string): HostedFile => ({ url: base + key, key, contentType, size });

  return {
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
      const { bytes, contentType } = await this.fetchInput(url);
      const type = rehostOptions.contentType ?? contentType;
      return this.put(bytes, type, rehostOptions.extension ?? extensionForContentType(type));
    },
    async fetchInput(url, fetchOptions = {}) {
      const maxBytes = fetchOptions.maxBytes ?? defaultMaxInputBytes;
      if (url.startsWith(base)) {
        const key = decodeURIComponent(url.slice(base.length).split(/[?#]/)[0]);
        const info = await options.store.stat(key);
        if (!info) throw permanent(options.provider, `input ${url} does not exist (it may have been removed by retention)`);
        if (info.size > maxBytes) throw permanent(options.provider, `input ${url} is ${info.size} bytes, more than the ${maxBytes} allowed`);
        return { bytes: await options.store.readAll(key), contentType: contentTypeForKey(key) };
      }
      return fetchRemote(url, maxBytes, options);
    },
  };
}

async function fetchRemote(url: string, maxBytes: number, options: RequestBlobsOptions): Promise<{ bytes: Buffer; contentType: string }> {
  const timeout = AbortSignal.timeout(options.fetchTimeoutMs ?? 60_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    throw permanent(options.provider, `could not fetch ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    throw new ProviderError(`could not fetch ${url}: HTTP ${response.status}`, {
      provider: options.provider,
      retryable: ProviderError.isRetryableStatus(response.status),
      vendorStatus: response.status,
    });
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw permanent(options.provider, `${url} is ${declared} bytes, more than the ${maxBytes} allowed`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.length;
    if (total > maxBytes) throw permanent(options.provider, `${url} is larger than the ${maxBytes} bytes allowed`);
    chunks.push(Buffer.from(chunk));
  }
  return { bytes: Buffer.concat(chunks), contentType: response.headers.get('content-type')?.split(';')[0] ?? 'application/octet-stream' };
}

function permanent(provider: string, message: string): ProviderError {
  return new ProviderError(message, { provider, retryable: false });
}
