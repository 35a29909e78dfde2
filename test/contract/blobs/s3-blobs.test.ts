/** The blob contract over S3Blobs against s3rver, plus what only the S3 adapter promises. */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, HeadObjectCommand } from '@aws-sdk/client-s3';
import { BlobStorageError, S3Blobs } from '../../../src/kernel/blobs/index.js';
import { ApiError } from '../../../src/kernel/errors/index.js';
import { freePort } from '../../support/free-port.js';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { describeBlobContract } from './blob-contract.js';

describeBlobContract('S3Blobs on s3rver', async () => {
  const server = await startS3Server();
  const store = new S3Blobs({ bucket: server.bucket, prefix: 'media/', endpoint: server.endpoint, credentials: server.credentials });
  return {
    store,
    async cleanup() {
      store.destroy();
      await server.stop();
    },
  };
});

describe('S3Blobs specifics', function () {
  this.timeout(60_000);
  let server: S3TestServer;
  let store: S3Blobs;
  let raw: S3Client;
  before(async () => {
    server = await startS3Server();
    store = new S3Blobs({ bucket: server.bucket, prefix: '/mediagate/files/', endpoint: server.endpoint, credentials: server.credentials });
    raw = new S3Client({ endpoint: server.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: server.credentials });
  });
  after(async () => {
    store?.destroy();
    raw?.destroy();
    await server?.stop();
  });

  it('keeps every key under the configured prefix', async () => {
    await store.put('req_prefix/a.png', Buffer.from('png'), 'image/png');

    const head = await raw.send(new HeadObjectCommand({ Bucket: server.bucket, Key: 'mediagate/files/req_prefix/a.png' }));
    expect(head.ContentLength).to.equal(3);
    expect(head.ContentType).to.equal('image/png');
  });

  it('removes the source file once it is uploaded, as the folder adapter moves it', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'mediagate-s3-putfile-'));
    try {
      const source = join(scratch, 'speech.wav');
      await writeFile(source, Buffer.alloc(2048, 1));
      await store.putFile('req_move/speech.wav', source, 'audio/wav');
      expect(existsSync(source)).to.equal(false);
      expect(await store.stat('req_move/speech.wav')).to.deep.equal({ size: 2048, contentType: 'audio/wav' });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  // s3rver does not verify SigV4 signatures (a wrong secret passes), so refuse by an unknown key id.
  it('maps refused credentials to a non-retryable 503 without SDK internals', async () => {
    const wrongKey = new S3Blobs({ bucket: server.bucket, endpoint: server.endpoint, credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' } });
    try {
      const error = await wrongKey.put('req_denied/a.png', Buffer.from('x'), 'image/png').then(() => undefined, (caught: unknown) => caught);
      expect(error).to.be.instanceOf(BlobStorageError);
      const storageError = error as BlobStorageError;
      expect(storageError).to.be.instanceOf(ApiError);
      expect({ code: storageError.code, status: storageError.status, retryable: storageError.retryable, storageCode: storageError.storageCode }).to.deep.equal({
        code: 'MG_UNAVAILABLE',
        status: 503,
        retryable: false,
        storageCode: 'InvalidAccessKeyId',
      });
      expect(storageError.message).to.equal('blob storage could not store req_denied/a.png (S3 InvalidAccessKeyId, HTTP 403)');
    } finally {
      wrongKey.destroy();
    }
  });

  it('maps an unreachable server to a retryable 503 naming only the socket error', async () => {
    const port = await freePort();
    const nowhere = new S3Blobs({ bucket: server.bucket, endpoint: `http://127.0.0.1:${port}`, credentials: server.credentials, connectionTimeoutMs: 2000 });
    try {
      const error = (await nowhere.stat('req_x/a.png').then(() => undefined, (caught: unknown) => caught)) as BlobStorageError;
      expect(error).to.be.instanceOf(BlobStorageError);
      expect({ status: error.status, retryable: error.retryable, storageCode: error.storageCode }).to.deep.equal({ status: 503, retryable: true, storageCode: 'ECONNREFUSED' });
      expect(error.message).to.equal('blob storage could not inspect req_x/a.png (ECONNREFUSED)');
    } finally {
      nowhere.destroy();
    }
  });

  it('turns a missing key into MG_NOT_FOUND on read', async () => {
    const error = (await store.read('req_none/a.png').then(() => undefined, (caught: unknown) => caught)) as ApiError;
    expect(error).to.be.instanceOf(ApiError);
    expect(error.code).to.equal('MG_NOT_FOUND');
  });

  it('counts every object it deletes', async () => {
    await Promise.all(['a', 'b', 'c/d'].map((name) => store.put(`req_count/${name}.png`, Buffer.from(name), 'image/png')));
    expect(await store.deletePrefix('req_count/')).to.equal(3);
  });
});
