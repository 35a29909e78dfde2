/**
 * What an operator's and a careful client's tools see: `/healthz` states without driver text, `/metrics`
 * closed to strangers (bearer token, its own port, or loopback peers only), a challenge on every 401, and
 * RFC 9745 / RFC 8594 headers on a legacy model value.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../src/cli/serve.js';
import { loadSettings } from '../../src/kernel/config/index.js';
import { CapturedLog } from '../support/captured-log.js';
import { freePort } from '../support/free-port.js';
import { startTestService, type TestService } from '../support/test-service.js';

const problem = (status: number, code: string, title: string, detail: string, instance: string) => ({ type: `https://mediagate.dev/docs/errors#${code.toLowerCase().replace(/_/g, '-')}`, title, status, detail, code, instance });

describe('HTTP: operator surfaces and protocol details', () => {
  describe('/healthz', () => {
    it('names a down database as unreachable, with the driver text only in the log', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-health-'));
      const closedPort = await freePort();
      const log = new CapturedLog();
      const settings = loadSettings({
        env: {},
        overrides: { server: { host: '127.0.0.1', port: await freePort(), public_url: '' }, data_dir: dataDir, database: { url: `mysql://mediagate:pw@127.0.0.1:${closedPort}/mediagate` }, log: { level: 'info' } },
      });
      const service = await startService(settings, { role: 'api', skipMigrations: true, logDestination: log });
      try {
        const response = await fetch(`${service.url}/healthz`);
        expect(response.status).to.equal(503);
        const text = await response.text();
        expect(JSON.parse(text)).to.deep.equal({ ok: false, role: 'api', checks: { database: { ok: false, reason: 'unreachable' }, queue: { ok: true } }, providers: service.gateway.plugins.breakerStates() });
        expect(text).to.not.match(/ECONNREFUSED|127\.0\.0\.1|SELECT/);
        const [logged] = log.entries('health check: the database is down');
        expect(logged).to.deep.include({ component: 'database', reason: 'unreachable' });
        expect((logged.err as { code: string }).code).to.equal('ECONNREFUSED');
      } finally {
        await service.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe('/metrics', () => {
    it('with a bearer token: 401 with a Bearer challenge without it or with another, 200 with it', async () => {
      const service = await startTestService({ metrics: { bearer_token: 'scrape-me' } });
      try {
        for (const authorization of [undefined, 'Bearer scrape-m', 'Bearer scrape-me-too', 'Basic c2NyYXBlLW1l']) {
          const response = await fetch(`${service.url}/metrics`, { headers: authorization ? { authorization } : {} });
          expect(response.status, authorization).to.equal(401);
          expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="metrics"');
          expect(await response.json()).to.deep.equal(problem(401, 'MG_UNAUTHENTICATED', 'API key missing, invalid or revoked', 'send the metrics token as Authorization: Bearer <token>', '/metrics'));
        }
        const allowed = await fetch(`${service.url}/metrics`, { headers: { authorization: 'Bearer scrape-me' } });
        expect(allowed.status).to.equal(200);
        expect(await allowed.text()).to.include('mediagate_requests_created_total');
      } finally {
        await service.stop();
      }
    });

    it('with metrics.port: served there, and not on the API port', async () => {
      const port = await freePort();
      const service = await startTestService({ metrics: { port } });
      try {
        expect(service.service.metricsUrl).to.equal(`http://127.0.0.1:${port}`);
        const onApiPort = await fetch(`${service.url}/metrics`);
        expect(onApiPort.status).to.equal(404);
        expect((await onApiPort.json()).code).to.equal('MG_NOT_FOUND');
        const onOwnPort = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(onOwnPort.status).to.equal(200);
        expect(await onOwnPort.text()).to.include('mediagate_http_request_duration_seconds');
        expect((await fetch(`http://127.0.0.1:${port}/api/v1/status`)).status).to.equal(404);
      } finally {
        await service.stop();
      }
    });

    it('without a token: 404 to a peer that is not loopback (X-Forwarded-For does not help), 200 to loopback', async function () {
      const external = Object.values(networkInterfaces()).flat().find((item) => item && item.family === 'IPv4' && !item.internal)?.address;
      // The peer must really be another address than loopback: the machine's own non-loopback interface.
      if (!external) {
        if (process.env.CI) throw new Error('this test needs a non-loopback IPv4 interface to connect from; CI machines have one');
        return this.skip();
      }
      const port = await freePort();
      const service = await startTestService({ server: { host: '0.0.0.0', port, public_url: `http://127.0.0.1:${port}` } });
      try {
        for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }] as Record<string, string>[]) {
          const stranger = await fetch(`http://${external}:${port}/metrics`, { headers });
          expect(stranger.status).to.equal(404);
          expect(await stranger.json()).to.deep.equal(problem(404, 'MG_NOT_FOUND', 'No such resource', 'no route for GET /metrics', '/metrics'));
        }
        expect((await fetch(`http://${external}:${port}/healthz`)).status).to.equal(200);
        expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).to.equal(200);
      } finally {
        await service.stop();
      }
    });
  });

  describe('401 and deprecation headers', () => {
    let service: TestService;
    let key: string;
    before(async () => {
      service = await startTestService({ manifest_dirs: [fileURLToPath(new URL('../fixtures/deprecations', import.meta.url))], plugin_dirs: [fileURLToPath(new URL('../fixtures/plugins', import.meta.url))] });
      ({ key } = await service.createKey());
    });
    after(async () => service.stop());

    it('every 401 carries WWW-Authenticate: ApiKey, with error="invalid_key" when a key was sent', async () => {
      const missing = await service.api('GET', '/api/v1/status');
      expect(missing.status).to.equal(401);
      expect(missing.headers.get('www-authenticate')).to.equal('ApiKey realm="mediagate"');
      expect(missing.body).to.deep.equal(problem(401, 'MG_UNAUTHENTICATED', 'API key missing, invalid or revoked', 'send your API key in the x-api-key header', '/api/v1/status'));
      const invalid = await service.api('POST', '/api/v1/requests', { key: 'mg_notarealkey', body: {} });
      expect(invalid.status).to.equal(401);
      expect(invalid.headers.get('www-authenticate')).to.equal('ApiKey realm="mediagate", error="invalid_key"');
      expect(invalid.body).to.deep.equal(problem(401, 'MG_UNAUTHENTICATED', 'API key missing, invalid or revoked', 'the API key is invalid or has been revoked', '/api/v1/requests'));
    });

    it('a legacy model value answers Deprecation as an sf-date and a Link to the docs; Sunset only where a date is planned', async () => {
      const legacy = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'video.upscale', input: { video_url: 'https://example.com/v.mp4', model: 'video-upscaler' } } });
      expect(legacy.status).to.equal(202);
      // video.upscale.yaml: deprecated since 2026-11-22, no removal date planned.
      expect(legacy.headers.get('deprecation')).to.equal(`@${Date.UTC(2026, 10, 22) / 1000}`);
      expect(legacy.headers.get('link')).to.equal('<https://mediagate.dev/docs/deprecations>; rel="deprecation"; type="text/html"');
      expect(legacy.headers.get('sunset')).to.equal(null);
      const planned = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'hi', model: 'echo-1' } } });
      expect(planned.status).to.equal(202);
      // test/fixtures/deprecations/test.echo.yaml: since 2026-11-22, sunset 2027-06-30.
      expect(planned.headers.get('deprecation')).to.equal(`@${Date.UTC(2026, 10, 22) / 1000}`);
      expect(planned.headers.get('sunset')).to.equal('Wed, 30 Jun 2027 00:00:00 GMT');
      const current = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'video.upscale', input: { video_url: 'https://example.com/v.mp4', model: 'bytedance-upscaler' } } });
      expect(current.status).to.equal(202);
      expect([current.headers.get('deprecation'), current.headers.get('link'), current.headers.get('sunset')]).to.deep.equal([null, null, null]);
    });
  });
});
