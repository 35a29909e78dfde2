/**
 * The access log, read from the captured log of a real service: every HTTP call (a create, its polls, a hosted file,
 * a refused call, an unknown path, a list with a query string) leaves exactly one `info` line naming its method,
 * route pattern, status, duration and the `X-Request-Id` the client got, and no line carries the raw path, the query
 * string, the API key or the prompt.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../src/cli/serve.js';
import { loadSettings } from '../../src/kernel/config/index.js';
import { newId } from '../../src/kernel/store/index.js';
import { CapturedLog } from '../support/captured-log.js';
import { withFixtures } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';

describe('HTTP: one access-log line per request', function () {
  this.timeout(60_000);
  const prompt = 'prompt-that-must-stay-out-of-the-access-log';
  const querySecret = 'query-secret-0123456789';
  const pathSecret = 'path-secret-9876543210';
  const log = new CapturedLog();
  let service: RunningService;
  let dataDir: string;
  let key: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mediagate-access-'));
    const settings = loadSettings({ env: {}, overrides: { ...withFixtures, server: { host: '127.0.0.1', port: await freePort(), public_url: '' }, data_dir: dataDir, log: { level: 'info' }, worker: { thread: false } } });
    service = await startService(settings, { logDestination: log });
    const { accounts, apiKeys, clock } = service.gateway;
    const accountId = newId('acct', clock.now());
    await accounts.createAccount({ id: accountId, email: 'access@example.com', plan: 'test', creditsBalance: 10_000, createdAtMs: clock.now() });
    key = (await apiKeys.create(accountId, 'access key', ['requests:read', 'requests:write'])).plaintext;
  });
  after(async () => {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  interface Call {
    method: string;
    path: string;
    status: number;
    httpRequestId: string;
    body: any;
  }

  async function call(method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Call> {
    const headers: Record<string, string> = options.key ? { 'x-api-key': options.key } : {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(service.url + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('json') ? await response.json() : Buffer.from(await response.arrayBuffer());
    return { method, path, status: response.status, httpRequestId: response.headers.get('x-request-id') ?? '', body };
  }

  /** The lines are written when a response is over, just after the client has it: wait for them, with a deadline. */
  async function accessLines(count: number): Promise<Record<string, unknown>[]> {
    const until = Date.now() + 5_000;
    for (;;) {
      const lines = log.entries('http request');
      if (lines.length >= count || Date.now() > until) return lines;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('logs method, route pattern, status, duration and the request ids of every call, and nothing a client sent', async () => {
    const calls: Call[] = [];
    const created = await call('POST', '/api/v1/requests', { key, body: { operation: 'image.generate', input: { prompt, aspect_ratio: '1:1', resolution: '1K' } } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    calls.push(created);
    const id = created.body.id as string;
    let done: Call;
    for (const until = Date.now() + 30_000; ; ) {
      done = await call('GET', `/api/v1/requests/${id}`, { key });
      calls.push(done);
      if (done.body.status === 'succeeded' || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(done.body.status).to.equal('succeeded');
    const imagePath = new URL(done.body.output.image_url).pathname;
    const file = await call('GET', imagePath);
    expect(file.status).to.equal(200);
    calls.push(file);
    calls.push(await call('GET', `/api/v1/requests?limit=1&api_key=${querySecret}`, { key }));
    calls.push(await call('GET', `/api/v1/requests/${id}`));
    calls.push(await call('GET', `/no/such/${pathSecret}?token=${querySecret}`));
    calls.push(await call('GET', '/healthz'));
    expect(calls.map((each) => each.status)).to.deep.equal([202, ...calls.slice(1, -5).map(() => 200), 200, 200, 401, 404, 200]);

    const lines = await accessLines(calls.length);
    expect(lines).to.have.length(calls.length);
    const route = (path: string) =>
      path.startsWith('/files/') ? '/files/*key' : path.startsWith('/api/v1/requests?') ? '/api/v1/requests' : path.startsWith('/api/v1/requests/') ? '/api/v1/requests/:requestId' : path.startsWith('/no/') ? 'unmatched' : path;
    for (const each of calls) {
      expect(each.httpRequestId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const matching = lines.filter((line) => line.httpRequestId === each.httpRequestId);
      expect(matching, `${each.method} ${each.path}`).to.have.length(1);
      const [line] = matching;
      const { level, time, pid, hostname, durationMs, ...fields } = line!;
      expect(level, 'info').to.equal(30);
      expect(durationMs).to.be.a('number').and.to.be.at.least(0);
      const aboutRequest = each.path.startsWith('/api/v1/requests/') || each === created;
      expect(fields).to.deep.equal({
        msg: 'http request',
        httpRequestId: each.httpRequestId,
        method: each.method,
        route: route(each.path),
        status: each.status,
        ...(aboutRequest ? { requestId: id } : {}),
      });
    }
    const text = log.text();
    for (const secret of [key, prompt, querySecret, pathSecret, imagePath, 'limit=1']) expect(text, `the log contains ${secret}`).to.not.include(secret);
  });

  it('a client that goes away before the answer is over is logged once, as aborted', async () => {
    const before = log.entries('http request').length;
    // node:http without an agent: fetch's pool would open a spare connection after the abort, and a connection that
    // never sent a request holds the server's close until the shutdown timeout.
    const body = JSON.stringify({ operation: 'test.slow', input: { message: 'a long wait', script: { pending: 1_000_000 } } });
    const { hostname, port } = new URL(service.url);
    const outcome = new Promise<string>((resolve) => {
      // The scripted task never finishes and the create waits for it 1 s, so the client is gone before any answer.
      const sent = request({ hostname, port, method: 'POST', path: '/api/v1/requests', agent: false, headers: { 'x-api-key': key, 'content-type': 'application/json', prefer: 'wait=1' } }, () => resolve('answered'));
      sent.on('error', () => resolve('aborted'));
      sent.end(body);
      setTimeout(() => sent.destroy(), 300);
    });
    expect(await outcome).to.equal('aborted');
    const lines = (await accessLines(before + 1)).slice(before);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ method: 'POST', route: '/api/v1/requests', status: 202, aborted: true });
    // The request was created all the same, and the line names it.
    const requestId = lines[0]!.requestId as string;
    expect(await service.gateway.requests.get(requestId)).to.include({ id: requestId, operation: 'test.slow' });
  });
});
