/**
 * Picks the blob adapter from one setting: a folder (`./data/files`, `file:///srv/files`) or a bucket
 * (`s3://bucket/prefix`). Anything else fails at start with a message naming what is accepted.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlobStore } from './blob-port.js';
import { LocalFolderBlobs } from './local-folder-blobs.js';
import { S3Blobs, type S3Credentials } from './s3-blobs.js';

export interface OpenBlobStoreOptions {
  /** S3-compatible server for `s3://` URLs (MEDIAGATE_S3_ENDPOINT); path-style addressing follows. */
  s3Endpoint?: string;
  s3Region?: string;
  /** Overrides the default of path-style whenever an endpoint is given. */
  s3ForcePathStyle?: boolean;
  /** Taken from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN when omitted. */
  s3Credentials?: S3Credentials;
  /** Relative folder paths resolve against this (default: the working directory). */
  baseDir?: string;
  /** Where the AWS variables are read (default `process.env`). */
  env?: Record<string, string | undefined>;
}

const accepted = 'a folder path, file:///path or s3://bucket/prefix';

export function openBlobStore(url: string, options: OpenBlobStoreOptions = {}): BlobStore {
  const location = url.trim();
  if (location === '') throw new Error(`blob storage location is empty: use ${accepted}`);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) return new LocalFolderBlobs(isAbsolute(location) ? location : resolve(options.baseDir ?? process.cwd(), location));
  if (scheme === 'file') return new LocalFolderBlobs(fileURLToPath(location));
  if (scheme === 's3') return openS3(location, options);
  // Only the scheme is echoed: a URL may carry credentials.
  throw new Error(`blob storage scheme "${scheme}://" is not supported: use ${accepted}`);
}

function openS3(location: string, options: OpenBlobStoreOptions): S3Blobs {
  let parsed: URL;
  try {
    parsed = new URL(location);
  } catch {
    throw new Error(`blob storage URL is not a valid s3://bucket/prefix URL`);
  }
  if (parsed.username || parsed.password) {
    throw new Error('blob storage URL must not carry credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead');
  }
  const bucket = parsed.hostname;
  // The S3 naming rules, which MinIO, Ceph and R2 share: 3-63 of a-z 0-9 . -, letter or digit at both ends.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error(`blob storage bucket "${bucket}" is not a valid bucket name (s3://bucket/prefix)`);
  }
  if (parsed.port || parsed.search || parsed.hash) {
    throw new Error('blob storage URL takes no port, query or fragment (s3://bucket/prefix); set the server with MEDIAGATE_S3_ENDPOINT');
  }
  const env = options.env ?? process.env;
  const endpoint = options.s3Endpoint || undefined;
  return new S3Blobs({
    bucket,
    prefix: decodeURIComponent(parsed.pathname),
    endpoint,
    region: options.s3Region || env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
    forcePathStyle: options.s3ForcePathStyle ?? endpoint !== undefined,
    credentials: options.s3Credentials ?? credentialsFromEnv(env),
  });
}

/** Both halves of a key pair or neither: with neither, the SDK's own chain (profiles, roles) applies. */
function credentialsFromEnv(env: Record<string, string | undefined>): S3Credentials | undefined {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId && !secretAccessKey) return undefined;
  if (!accessKeyId || !secretAccessKey) throw new Error('set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither');
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}
