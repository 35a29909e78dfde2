/** The blob storage port: hosted media files, addressed by key, served at `{public_url}/files/<key>`. */
import type { Readable } from 'node:stream';

export interface BlobInfo {
  size: number;
  contentType: string;
}

export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Moves or copies a local file into the store (avoids loading large videos into memory). */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Reads bytes `start..end` inclusive (the whole file when omitted). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  readAll(key: string): Promise<Buffer>;
  /** Removes every blob whose key starts with `prefix` (a request's folder); used by retention. */
  deletePrefix(prefix: string): Promise<number>;
}
