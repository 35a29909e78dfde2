/**
 * What every BlobStore adapter must do, run unchanged against each of them (folder, S3). Each test
 * works in its own request folder, so one store serves the whole suite.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../../src/kernel/blobs/index.js';

export interface BlobContractSubject {
  store: BlobStore;
  cleanup(): Promise<void>;
}

export function describeBlobContract(name: string, make: () => Promise<BlobContractSubject>): void {
  describe(`BlobStore contract: ${name}`, function () {
    this.timeout(60_000);
    let subject: BlobContractSubject;
    let scratch: string;
    let store: BlobStore;
    /** A fresh request folder per test, like the `req_...` folders request-blobs creates. */
    let folder: string;

    before(async () => {
      subject = await make();
      store = subject.store;
      scratch = await mkdtemp(join(tmpdir(), 'mediagate-blob-contract-'));
    });
    after(async () => {
      await subject?.cleanup();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });
    beforeEach(() => {
      folder = `req_${randomBytes(6).toString('hex')}`;
    });

    it('stores bytes and gives back the same bytes, size and content type', async () => {
      const bytes = Buffer.from('a small PNG stand-in');
      await store.put(`${folder}/image.png`, bytes, 'image/png');

      expect(await store.stat(`${folder}/image.png`)).to.deep.equal({ size: bytes.length, contentType: 'image/png' });
      expect((await store.readAll(`${folder}/image.png`)).equals(bytes)).to.equal(true);
    });

    it('replaces a blob put again under the same key', async () => {
      await store.put(`${folder}/notes.txt`, Buffer.from('first version, longer'), 'text/plain; charset=utf-8');
      await store.put(`${folder}/notes.txt`, Buffer.from('second'), 'text/plain; charset=utf-8');

      expect(await store.stat(`${folder}/notes.txt`)).to.deep.equal({ size: 6, contentType: 'text/plain; charset=utf-8' });
      expect((await store.readAll(`${folder}/notes.txt`)).toString()).to.equal('second');
    });

    it('stores an empty blob', async () => {
      await store.put(`${folder}/empty.json`, Buffer.alloc(0), 'application/json');

      expect(await store.stat(`${folder}/empty.json`)).to.deep.equal({ size: 0, contentType: 'application/json' });
      expect((await store.readAll(`${folder}/empty.json`)).length).to.equal(0);
    });

    it('takes a multi-megabyte file from disk and keeps every byte', async () => {
      const bytes = randomBytes(8 * 1024 * 1024 + 123);
      const source = join(scratch, `${folder}.mp4`);
      await writeFile(source, bytes);

      await store.putFile(`${folder}/video.mp4`, source, 'video/mp4');

      expect(await store.stat(`${folder}/video.mp4`)).to.deep.equal({ size: bytes.length, contentType: 'video/mp4' });
      const stored = await store.readAll(`${folder}/video.mp4`);
      expect(stored.length).to.equal(bytes.length);
      expect(stored.equals(bytes)).to.equal(true);
    });

    it('reads exactly the byte ranges asked for', async () => {
      const bytes = randomBytes(64 * 1024 + 7);
      await store.put(`${folder}/clip.mp4`, bytes, 'video/mp4');
      const last = bytes.length - 1;

      for (const [start, end] of [
        [0, 0],
        [0, 99],
        [1, 1],
        [30_000, 40_000],
        [last - 99, last],
        [last, last],
        [0, last],
      ]) {
        const read = await collect(await store.read(`${folder}/clip.mp4`, { start, end }));
        expect(read.equals(bytes.subarray(start, end + 1)), `bytes ${start}-${end}`).to.equal(true);
      }
      expect((await collect(await store.read(`${folder}/clip.mp4`))).equals(bytes), 'whole blob').to.equal(true);
    });

    it('says a missing key is missing', async () => {
      await store.put(`${folder}/sub/present.png`, Buffer.from('x'), 'image/png');

      expect(await store.stat(`${folder}/absent.png`)).to.equal(undefined);
      expect(await store.stat(`req_${randomBytes(6).toString('hex')}/absent.png`)).to.equal(undefined);
      // A folder is not a blob.
      expect(await store.stat(`${folder}/sub`)).to.equal(undefined);
      // Nor is a key that could never be stored.
      expect(await store.stat(`../${folder}/sub/present.png`)).to.equal(undefined);
      await expectRejection(store.readAll(`${folder}/absent.png`));
      // Failing when asked or while streaming are both fine for a missing key; succeeding is not.
      await expectRejection((async () => collect(await store.read(`${folder}/absent.png`)))());
    });

    it('keeps nested folders apart', async () => {
      const keys = [`${folder}/a.json`, `${folder}/a/b.json`, `${folder}/a/b/c/d.json`, `${folder}/a/b/c/e.json`];
      for (const key of keys) await store.put(key, Buffer.from(JSON.stringify({ key })), 'application/json');

      for (const key of keys) {
        expect(JSON.parse((await store.readAll(key)).toString())).to.deep.equal({ key });
        expect(await store.stat(key)).to.deep.equal({ size: JSON.stringify({ key }).length, contentType: 'application/json' });
      }
    });

    it('keeps binary bytes intact: every byte value, NULs, CR/LF, invalid UTF-8', async () => {
      const everyByte = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
      const bytes = Buffer.concat([everyByte, Buffer.from([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0xc3, 0x28, 0xed, 0xa0, 0x80]), everyByte.reverse()]);
      await store.put(`${folder}/model.glb`, bytes, 'model/gltf-binary');

      expect((await store.readAll(`${folder}/model.glb`)).equals(bytes)).to.equal(true);
      expect((await collect(await store.read(`${folder}/model.glb`, { start: 250, end: 270 }))).equals(bytes.subarray(250, 271))).to.equal(true);
    });

    it('takes concurrent puts without losing or mixing any', async () => {
      const blobs = Array.from({ length: 32 }, (_, index) => ({ key: `${folder}/part-${index}.bin`, bytes: randomBytes(1000 + index * 97) }));

      await Promise.all(blobs.map(({ key, bytes }) => store.put(key, bytes, 'application/octet-stream')));

      const read = await Promise.all(blobs.map(({ key }) => store.readAll(key)));
      read.forEach((bytes, index) => expect(bytes.equals(blobs[index].bytes), blobs[index].key).to.equal(true));
    });

    it('deletes exactly one request folder, not a sibling that shares its first letters', async () => {
      const kept = [`${folder}/req_ab/keep.png`, `${folder}/req_a.png`, `${folder}/req_abc/deep/keep.png`];
      const removed = [`${folder}/req_a/one.png`, `${folder}/req_a/two.png`, `${folder}/req_a/sub/three.png`];
      for (const key of [...kept, ...removed]) await store.put(key, Buffer.from(key), 'image/png');

      expect(await store.deletePrefix(`${folder}/req_a/`)).to.be.greaterThan(0);

      for (const key of removed) expect(await store.stat(key), key).to.equal(undefined);
      for (const key of kept) expect((await store.readAll(key)).toString(), key).to.equal(key);
    });

    it('treats a prefix without its trailing slash as the same folder', async () => {
      await store.put(`${folder}/req_a/one.png`, Buffer.from('1'), 'image/png');
      await store.put(`${folder}/req_ab/two.png`, Buffer.from('2'), 'image/png');

      expect(await store.deletePrefix(`${folder}/req_a`)).to.be.greaterThan(0);

      expect(await store.stat(`${folder}/req_a/one.png`)).to.equal(undefined);
      expect(await store.stat(`${folder}/req_ab/two.png`)).to.deep.equal({ size: 1, contentType: 'image/png' });
    });

    it('deletes nothing and says so for a folder that does not exist', async () => {
      expect(await store.deletePrefix(`${folder}/never-written/`)).to.equal(0);
    });

    it('deletes a folder of more than a thousand blobs (past one listing page and one delete batch)', async () => {
      const keys = Array.from({ length: 1003 }, (_, index) => `${folder}/many/${String(index).padStart(4, '0')}.txt`);
      await inBatches(keys, 64, (key) => store.put(key, Buffer.from(key), 'text/plain; charset=utf-8'));
      await store.put(`${folder}/other/keep.txt`, Buffer.from('keep'), 'text/plain; charset=utf-8');

      expect(await store.deletePrefix(`${folder}/many`)).to.be.greaterThan(0);

      expect(await store.stat(keys[0])).to.equal(undefined);
      expect(await store.stat(keys[999])).to.equal(undefined);
      expect(await store.stat(keys[1002])).to.equal(undefined);
      expect(await store.deletePrefix(`${folder}/many`)).to.equal(0);
      expect((await store.readAll(`${folder}/other/keep.txt`)).toString()).to.equal('keep');
    });

    it('refuses keys that climb out of the store and an empty prefix', async () => {
      await store.put(`${folder}/keep.png`, Buffer.from('keep'), 'image/png');

      await expectRejection(store.put('../escape.png', Buffer.from('x'), 'image/png'));
      await expectRejection(store.put(`${folder}/../../escape.png`, Buffer.from('x'), 'image/png'));
      await expectRejection(store.deletePrefix(''));

      expect(await store.stat(`${folder}/keep.png`)).to.deep.equal({ size: 4, contentType: 'image/png' });
    });
  });
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function expectRejection(promise: Promise<unknown>): Promise<void> {
  let failed = false;
  await promise.catch(() => (failed = true));
  expect(failed, 'expected the call to fail').to.equal(true);
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let index = 0; index < items.length; index += size) await Promise.all(items.slice(index, index + size).map(work));
}
