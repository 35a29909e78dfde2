/**
 * Hosted URLs stay `{public_url}/files/<key>` whatever the backend: the API serves bucket objects with
 * their type, length and byte ranges, exactly as it serves the folder adapter's files.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../../src/cli/serve.js';
import { S3Blobs } from '../../../src/kernel/blobs/index.js';
import { loadSettings } from '../../../src/kernel/config/index.js';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';

describe('/files/... served from an S3 bucket', function () {
  this.timeout(60_000);
  const bytes = randomBytes(300_000);
  let s3: S3TestServer;
  let blobs: S3Blobs;
  let service: RunningService;
  let dataDir: string;

  before(async () => {
    s3 = await startS3Server();
    blobs = new S3Blobs({ bucket: s3.bucket, prefix: 'files', endpoint: s3.endpoint, credentials: s3.credentials });
    dataDir = await mkdtemp(join(tmpdir(), 'mediagate-s3-files-'));
    const settings = loadSettings({
      env: {},
      overrides: { server: { host: '127.0.0.1', port: 0, public_url: '' }, data_dir: dataDir, log: { level: 'silent' } },
    });
    service = await startService(settings, { role: 'api', blobs, log: pino({ level: 'silent' }) });
    await blobs.put('req_s3files/clip.mp4', bytes, 'video/mp4');
  });
  after(async () => {
    await service?.stop();
    blobs?.destroy();
    await s3?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the whole object with its type and length', async () => {
    const response = await fetch(`${service.url}/files/req_s3files/clip.mp4`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('video/mp4');
    expect(response.headers.get('content-length')).to.equal(String(bytes.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).to.equal(true);
  });

  it('serves a byte range as 206', async () => {
    const response = await fetch(`${service.url}/files/req_s3files/clip.mp4`, { headers: { range: 'bytes=1000-2999' } });
    expect(response.status).to.equal(206);
    expect(response.headers.get('content-range')).to.equal(`bytes 1000-2999/${bytes.length}`);
    expect(response.headers.get('content-length')).to.equal('2000');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(1000, 3000))).to.equal(true);
  });

  it('answers HEAD from the object metadata alone', async () => {
    const response = await fetch(`${service.url}/files/req_s3files/clip.mp4`, { method: 'HEAD' });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-length')).to.equal(String(bytes.length));
  });

  it('404s a key the bucket does not hold', async () => {
    const response = await fetch(`${service.url}/files/req_s3files/missing.mp4`);
    expect(response.status).to.equal(404);
    expect((await response.json()).code).to.equal('MG_NOT_FOUND');
  });
});
