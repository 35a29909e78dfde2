/**
 * Slow clients (slowloris): a raw socket that sends its headers, or its body, a few bytes at a time. With
 * half-second timeouts configured, each is answered 408 `MG_REQUEST_TIMEOUT` and disconnected within seconds.
 */
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { startTestService, type TestService } from '../support/test-service.js';

const timeoutMs = 500;

interface Dribbled {
  /** Everything the server sent before it closed the connection. */
  received: string;
  elapsedMs: number;
}

/** Sends `head`, then one of `drip` every 100 ms until the server closes the socket (or 10 s pass). */
async function dribble(url: string, head: string, drip: string): Promise<Dribbled> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const socket: Socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  const dripping = setInterval(() => socket.writable && socket.write(drip), 100);
  const giveUp = setTimeout(() => socket.destroy(), 10_000);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  clearInterval(dripping);
  clearTimeout(giveUp);
  return { received, elapsedMs: Date.now() - started };
}

function parseResponse(raw: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) };
}

describe('HTTP: slow clients never hold a connection', () => {
  let service: TestService;
  let key: string;
  before(async () => {
    service = await startTestService({ server: { headers_timeout_ms: timeoutMs, body_timeout_ms: timeoutMs } });
    ({ key } = await service.createKey());
  });
  after(async () => service.stop());

  it('headers sent a line at a time: 408 problem+json and the connection closed', async () => {
    const { received, elapsedMs } = await dribble(service.url, 'GET /api/v1/status HTTP/1.1\r\nHost: localhost\r\n', 'X-Slow: still here\r\n');
    const response = parseResponse(received);
    expect(response.status).to.equal(408);
    expect(response.headers['content-type']).to.equal('application/problem+json');
    expect(response.headers.connection).to.equal('close');
    expect(response.body).to.deep.equal({
      type: 'https://mediagate.dev/docs/errors#mg-request-timeout',
      title: 'The request was not received in time',
      status: 408,
      detail: 'the request did not arrive in time',
      code: 'MG_REQUEST_TIMEOUT',
    });
    expect(elapsedMs).to.be.below(3000);
  });

  it('a body sent a byte at a time: 408 problem+json from the body reader, the connection closed, nothing created', async () => {
    const head = `POST /api/v1/requests HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`;
    const { received, elapsedMs } = await dribble(service.url, head, ' ');
    const response = parseResponse(received);
    expect(response.status).to.equal(408);
    expect(response.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(response.headers.connection).to.equal('close');
    expect(response.body).to.deep.equal({
      type: 'https://mediagate.dev/docs/errors#mg-request-timeout',
      title: 'The request was not received in time',
      status: 408,
      detail: `the body did not arrive within ${timeoutMs} ms`,
      code: 'MG_REQUEST_TIMEOUT',
      instance: '/api/v1/requests',
    });
    expect(elapsedMs).to.be.below(3000);
    expect((await service.api('GET', '/api/v1/requests', { key })).body.data).to.deep.equal([]);
  });
});
