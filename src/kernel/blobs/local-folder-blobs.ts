/** Blob store on a local folder: the embedded default. Content types follow the key's extension. */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobInfo, BlobStore } from './blob-port.js';
import { contentTypeForKey } from './content-types.js';

export class LocalFolderBlobs implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename: a reader never sees a half-written file.
    const partial = `${path}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, path);
  }

  async putFile(key: string, source: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await rename(source, path);
    } catch {
      // Another filesystem: copy instead.
      const partial = `${path}.partial`;
      await copyFile(source, partial);
      await rename(partial, path);
    }
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, contentType: contentTypeForKey(key) } : undefined;
    } catch {
      return undefined;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
  }

  async readAll(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const path = this.pathOf(prefix);
    const existed = await stat(path).then(() => 1, () => 0);
    await rm(path, { recursive: true, force: true });
    return existed;
  }

  /** Maps a key into the root, refusing anything that would escape it (`..`, absolute paths). */
  private pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep) || key.includes('\0')) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    return path;
  }
}
