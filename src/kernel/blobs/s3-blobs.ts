/**
 * Blob store on an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, R2, ...): the production adapter.
 * Objects live under a key prefix inside the bucket; the API still serves them at `/files/<key>`, so
 * hosted URLs do not change with the backend and the bucket can stay private.
 */
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable, Transform, pipeline } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { ApiError } from '../errors/index.js';
import type { BlobInfo, BlobStore } from './blob-port.js';
import { contentTypeForKey } from './content-types.js';

export interface S3BlobsOptions {
  bucket: string;
  /** Folder inside the bucket that holds every key, e.g. `mediagate/`; empty for the bucket root. */
  prefix?: string;
  /** Base URL of an S3-compatible server (`http://minio:9000`); omit for AWS S3 itself. */
  endpoint?: string;
  /** Defaults to `us-east-1`, which S3-compatible servers accept whatever their own region. */
  region?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`; most self-hosted servers need it. */
  forcePathStyle?: boolean;
  /** Omit to use the SDK's default chain (environment, shared config files, instance or task roles). */
  credentials?: S3Credentials;
  /** Give up connecting after this long (default 10 s). */
  connectionTimeoutMs?: number;
  /** Give up when a socket has been idle this long, mid-transfer included (default 120 s). */
  idleTimeoutMs?: number;
}

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * A storage failure that the HTTP layer turns into a 503 problem (the catalogue's "a dependency is
 * unavailable") and callers can classify: `retryable` for outages and throttling, not for refused
 * credentials or a missing bucket, which need an operator. The message names the S3 error code and
 * status only, never the endpoint, bucket or an SDK stack.
 */
export class BlobStorageError extends ApiError {
  readonly retryable: boolean;
  /** The S3 error code (`SlowDown`, `AccessDenied`) or socket error code (`ECONNREFUSED`). */
  readonly storageCode: string;
  readonly storageStatus?: number;

  constructor(detail: string, details: { retryable: boolean; storageCode: string; storageStatus?: number }) {
    super('MG_UNAVAILABLE', detail);
    this.retryable = details.retryable;
    this.storageCode = details.storageCode;
    this.storageStatus = details.storageStatus;
  }
}

/** DeleteObjects takes at most 1000 keys, and ListObjectsV2 pages hold at most 1000. */
const batchSize = 1000;

export class S3Blobs implements BlobStore {
  readonly bucket: string;
  readonly prefix: string;
  private readonly client: S3Client;

  constructor(options: S3BlobsOptions) {
    this.bucket = options.bucket;
    this.prefix = normalisePrefix(options.prefix ?? '');
    const compatible = options.endpoint !== undefined;
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? compatible,
      credentials: options.credentials,
      requestHandler: { connectionTimeout: options.connectionTimeoutMs ?? 10_000, requestTimeout: options.idleTimeoutMs ?? 120_000 },
      // SDK 3.729+ adds CRC checksums to every upload, streaming ones as `aws-chunked` bodies, which
      // many S3-compatible servers reject or (s3rver) store verbatim, framing included. Only AWS gets
      // them; elsewhere checksums are sent where the API requires them (DeleteObjects).
      // https://github.com/aws/aws-sdk-js-v3/issues/6810
      ...(compatible ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const objectKey = this.objectKey(key);
    await this.send('store', key, () =>
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: bytes, ContentType: contentType, ContentLength: bytes.length })),
    );
  }

  /** Streams the file up (a video never sits in memory), then removes it: the folder adapter moves files too. */
  async putFile(key: string, path: string, contentType: string): Promise<void> {
    const objectKey = this.objectKey(key);
    const { size } = await stat(path);
    await this.send('store', key, () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: createReadStream(path), ContentType: contentType, ContentLength: size }),
      ),
    );
    await rm(path, { force: true });
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    // A key no put would accept names no blob (the folder adapter answers the same way).
    if (!isCleanPath(key)) return undefined;
    const objectKey = this.objectKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? contentTypeForKey(key) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw storageError('inspect', key, error);
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const objectKey = this.objectKey(key);
    const response = await this.get(key, () =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey, Range: range ? `bytes=${range.start}-${range.end}` : undefined })),
    );
    const body = bodyOf(response, key);
    return range ? trimToRange(body, range, response.ContentRange) : body;
  }

  async readAll(key: string): Promise<Buffer> {
    const objectKey = this.objectKey(key);
    const response = await this.get(key, () => this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey })));
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of bodyOf(response, key)) chunks.push(Buffer.from(chunk as Uint8Array));
    } catch (error) {
      throw storageError('read', key, error);
    }
    return Buffer.concat(chunks);
  }

  /**
   * Removes the folder `prefix/` (and an object named exactly `prefix`, as removing that path does in
   * the folder adapter). A prefix is a folder, never a string prefix: `req_a` leaves `req_ab/...` alone.
   * Returns the number of objects removed.
   */
  async deletePrefix(prefix: string): Promise<number> {
    const path = prefix.replace(/\/+$/, '');
    const exact = this.objectKey(path);
    const folder = `${exact}/`;
    let deleted = 0;
    if (await this.stat(path)) deleted += await this.deleteKeys(prefix, [exact]);
    // Each page is deleted before the next is asked for; the continuation token marks a position in
    // key order, so removing keys already listed does not skip any.
    let continuationToken: string | undefined;
    do {
      const page = await this.send('list', prefix, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, MaxKeys: batchSize, ContinuationToken: continuationToken })),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      if (keys.length > 0) deleted += await this.deleteKeys(prefix, keys);
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    return deleted;
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }

  private async deleteKeys(prefix: string, keys: string[]): Promise<number> {
    const result = await this.send('delete', prefix, () =>
      this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } })),
    );
    // Quiet mode lists failures only; one failure means the folder is not gone, so say so.
    const failure = result.Errors?.[0];
    if (failure) {
      throw new BlobStorageError(`blob storage could not delete ${result.Errors?.length} of ${keys.length} files under ${prefix} (S3 ${failure.Code})`, {
        retryable: failure.Code === 'InternalError' || failure.Code === 'SlowDown',
        storageCode: failure.Code ?? 'DeleteFailed',
      });
    }
    return keys.length;
  }

  private async get(key: string, call: () => Promise<GetObjectCommandOutput>): Promise<GetObjectCommandOutput> {
    try {
      return await call();
    } catch (error) {
      if (isNotFound(error)) throw new ApiError('MG_NOT_FOUND', `no file ${key}`);
      if (error instanceof S3ServiceException && error.name === 'InvalidRange') throw new ApiError('MG_RANGE_NOT_SATISFIABLE', `range outside ${key}`);
      throw storageError('read', key, error);
    }
  }

  private async send<T>(action: string, key: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw storageError(action, key, error);
    }
  }

  /** The bucket key of a blob key; refuses keys the folder adapter would refuse or normalise differently. */
  private objectKey(key: string): string {
    if (!isCleanPath(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    return this.prefix + key;
  }
}

/** `a/b` style: no leading slash, no empty, `.` or `..` segment, no NUL. */
function isCleanPath(path: string): boolean {
  return path.length > 0 && !path.includes('\0') && path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  if (!isCleanPath(trimmed)) throw new Error(`invalid S3 key prefix ${JSON.stringify(prefix)}`);
  return `${trimmed}/`;
}

function isNotFound(error: unknown): boolean {
  // HeadObject has no body, so a missing key arrives as a bare 404 named `NotFound`. AWS answers 403,
  // not 404, for a missing key when the credentials lack s3:ListBucket; that stays an error on purpose,
  // as the policy is wrong (deletePrefix needs ListBucket anyway).
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || (error.$metadata?.httpStatusCode === 404 && error.name !== 'NoSuchBucket');
}

function bodyOf(response: GetObjectCommandOutput, key: string): Readable {
  // In Node the SDK hands back the HTTP response itself, an IncomingMessage.
  if (response.Body instanceof Readable) return response.Body;
  throw new BlobStorageError(`blob storage returned no readable body for ${key}`, { retryable: true, storageCode: 'NoBody' });
}

const retryableCodes = new Set(['SlowDown', 'InternalError', 'ServiceUnavailable', 'RequestTimeout', 'RequestTimeTooSkewed', 'TimeoutError']);
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Turns an SDK or socket error into a BlobStorageError, keeping only its code and status. */
function storageError(action: string, key: string, error: unknown): BlobStorageError {
  if (error instanceof BlobStorageError) return error;
  if (error instanceof S3ServiceException) {
    const status = error.$metadata?.httpStatusCode;
    const code = error.name === 'Unknown' || error.name === 'UnknownError' ? `HTTP ${status}` : error.name;
    const retryable = retryableCodes.has(error.name) || status === 429 || (status !== undefined && status >= 500);
    return new BlobStorageError(`blob storage could not ${action} ${key} (S3 ${code}${status ? `, HTTP ${status}` : ''})`, {
      retryable,
      storageCode: error.name,
      storageStatus: status,
    });
  }
  const { code, name } = error as { code?: string; name?: string };
  const socketCode = code ?? name ?? 'Error';
  const retryable = networkCodes.has(socketCode) || name === 'TimeoutError' || name === 'AbortError';
  return new BlobStorageError(`blob storage could not ${action} ${key} (${socketCode})`, { retryable, storageCode: socketCode });
}

/**
 * HTTP lets a server ignore Range (a 200 with the whole object) or answer a wider one; s3rver, for one,
 * sends the whole object for `bytes=0-0`. Cut what arrived down to exactly the bytes asked for.
 */
function trimToRange(body: Readable, range: { start: number; end: number }, contentRange: string | undefined): Readable {
  const served = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  const servedStart = served ? Number(served[1]) : 0;
  if (served && servedStart === range.start && Number(served[2]) <= range.end) return body;
  if (servedStart > range.start) {
    body.destroy();
    throw new BlobStorageError(`blob storage answered ${contentRange} for bytes ${range.start}-${range.end}`, { retryable: false, storageCode: 'BadRange' });
  }
  let skip = range.start - servedStart;
  let remaining = range.end - range.start + 1;
  const trimmer = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let piece = chunk;
      if (skip > 0) {
        const skipped = Math.min(skip, piece.length);
        piece = piece.subarray(skipped);
        skip -= skipped;
      }
      if (remaining > 0 && piece.length > 0) {
        const kept = piece.subarray(0, remaining);
        remaining -= kept.length;
        this.push(kept);
      }
      done();
    },
  });
  // pipeline destroys the HTTP body when the reader goes away, which frees the socket.
  pipeline(body, trimmer, () => undefined);
  return trimmer;
}
