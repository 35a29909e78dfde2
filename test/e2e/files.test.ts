/** Hosted files: Content-Type and Content-Length from the store, single byte ranges, 416, no escaping the store. */
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';

describe('hosted files at /files/...', () => {
  let service: TestService;
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));
  before(async () => {
    service = await startTestService();
    await service.service.gateway.blobs.put('req_test/clip.mp4', bytes, 'video/mp4');
  });
  after(async () => service.stop());

  it('serves the whole file with its type and length', async () => {
    const response = await fetch(`${service.url}/files/req_test/clip.mp4`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('video/mp4');
    expect(response.headers.get('content-length')).to.equal('1000');
    expect(response.headers.get('accept-ranges')).to.equal('bytes');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).to.equal(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await fetch(`${service.url}/files/req_test/clip.mp4`, { method: 'HEAD' });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-length')).to.equal('1000');
  });

  for (const [range, start, end] of [
    ['bytes=0-99', 0, 99],
    ['bytes=900-', 900, 999],
    ['bytes=-10', 990, 999],
    ['bytes=990-5000', 990, 999],
  ] as const) {
    it(`serves ${range} as 206 with Content-Range`, async () => {
      const response = await fetch(`${service.url}/files/req_test/clip.mp4`, { headers: { range } });
      expect(response.status).to.equal(206);
      expect(response.headers.get('content-range')).to.equal(`bytes ${start}-${end}/1000`);
      expect(response.headers.get('content-length')).to.equal(String(end - start + 1));
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(start, end + 1))).to.equal(true);
    });
  }

  it('answers 416 for a range outside the file', async () => {
    const response = await fetch(`${service.url}/files/req_test/clip.mp4`, { headers: { range: 'bytes=1000-1100' } });
    expect(response.status).to.equal(416);
    expect(response.headers.get('content-range')).to.equal('bytes */1000');
    expect((await response.json()).code).to.equal('MG_RANGE_NOT_SATISFIABLE');
  });

  it('404s unknown files and never leaves the store folder', async () => {
    expect((await fetch(`${service.url}/files/req_test/missing.mp4`)).status).to.equal(404);
    expect((await fetch(`${service.url}/files/..%2F..%2Fmediagate.sqlite`)).status).to.equal(404);
    expect((await fetch(`${service.url}/files/%2e%2e/dev-api-key`)).status).to.equal(404);
  });
});
