/**
 * The guarded fetch against real HTTP servers on loopback. 127.0.0.2 plays "a public host" (allow-listed by
 * address) and 127.0.0.1 "the internal service" (not allow-listed), so DNS rebinding, mixed answers and
 * redirects into the internal network are tried without leaving the machine. Names resolve through an
 * injected resolver that counts its calls.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { expect } from 'chai';
import { createGuardedFetch, OutboundFetchError, type GuardedFetch, type HostResolver } from '../../src/kernel/plugin-sdk/guarded-fetch.js';

interface TestServer {
  port: number;
  received: string[];
  close(): Promise<void>;
}

async function listen(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<TestServer> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A resolver answering from a script, one answer per call (the last one repeats); records every call. */
function scriptedResolver(answers: string[][]): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<LookupAddress[]> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)];
    calls.push(hostname);
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { calls });
}

async function failureOf(promise: Promise<unknown>): Promise<OutboundFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(OutboundFetchError);
    return error as OutboundFetchError;
  }
  throw new Error('expected the fetch to fail');
}

describe('guarded fetch', function () {
  this.timeout(10_000);
  // "Public": allow-listed by address; everything else on loopback is internal.
  const publicHost = '127.0.0.2';
  let publicServer: TestServer;
  let internalServer: TestServer;
  let fetchAs: (resolver?: HostResolver) => GuardedFetch;

  beforeEach(async () => {
    publicServer = await listen(publicHost, (req, res) => res.end(`public ${req.url}`));
    // Same port on another address: a second DNS answer would land here with the same URL.
    internalServer = await listen('127.0.0.1', (req, res) => res.end('internal secrets'), publicServer.port);
    fetchAs = (resolver) => createGuardedFetch({ allowHosts: [`${publicHost}/32`], resolve: resolver });
  });
  afterEach(async () => {
    await publicServer.close();
    await internalServer.close();
  });

  it('fetches an allowed host and streams its body', async () => {
    const resolver = scriptedResolver([[publicHost]]);
    const response = await fetchAs(resolver)(`http://media.example:${publicServer.port}/a.png`, { timeoutMs: 2000 });
    expect(response.status).to.equal(200);
    expect(await text(response.body)).to.equal('public /a.png');
    expect(resolver.calls).to.deep.equal(['media.example']);
  });

  it('pins the connection to the checked address: a rebinding name never reaches the internal server', async () => {
    // Public on the first answer, internal on every later one: a client that resolves twice is fooled.
    const resolver = scriptedResolver([[publicHost], ['127.0.0.1']]);
    const response = await fetchAs(resolver)(`http://rebind.example:${internalServer.port}/secret`, { timeoutMs: 2000 });
    expect(await text(response.body)).to.equal('public /secret');
    expect(resolver.calls, 'one resolution for one connection').to.deep.equal(['rebind.example']);
    expect(internalServer.received).to.deep.equal([]);
    expect(publicServer.received).to.deep.equal(['GET /secret']);
  });

  it('refuses a name that resolves to a public and an internal address', async () => {
    for (const answer of [[publicHost, '127.0.0.1'], ['8.8.8.8', '10.0.0.5'], ['2606:4700::1111', '::ffff:169.254.169.254']]) {
      const failure = await failureOf(fetchAs(scriptedResolver([answer]))(`http://mixed.example:${publicServer.port}/`, { timeoutMs: 2000 }));
      expect(failure.failure, answer.join()).to.equal('refused');
    }
    expect(publicServer.received).to.deep.equal([]);
    expect(internalServer.received).to.deep.equal([]);
  });

  it('refuses internal literals in every spelling, without connecting', async () => {
    const port = internalServer.port;
    for (const url of [`http://127.0.0.1:${port}/`, `http://2130706433:${port}/`, `http://0x7f.1:${port}/`, `http://017700000001:${port}/`, `http://[::ffff:7f00:1]:${port}/`, `http://[::1]:${port}/`]) {
      expect((await failureOf(fetchAs()(url, { timeoutMs: 2000 }))).failure, url).to.equal('refused');
    }
    expect(internalServer.received).to.deep.equal([]);
  });

  it('checks every redirect hop: a redirect to an internal address is refused', async () => {
    const redirector = await listen(publicHost, (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${internalServer.port}/admin` }).end());
    try {
      const failure = await failureOf(fetchAs()(`http://${publicHost}:${redirector.port}/start`, { timeoutMs: 2000 }));
      expect(failure.failure).to.equal('refused');
      expect(redirector.received).to.deep.equal(['GET /start']);
      expect(internalServer.received).to.deep.equal([]);
    } finally {
      await redirector.close();
    }
  });

  it('follows at most 3 redirects', async () => {
    const loop = await listen(publicHost, (req, res) => res.writeHead(301, { location: `/hop${req.url!.length}` }).end());
    try {
      const failure = await failureOf(fetchAs()(`http://${publicHost}:${loop.port}/`, { timeoutMs: 2000 }));
      expect(failure.failure).to.equal('too_many_redirects');
      expect(loop.received).to.have.length(4);
    } finally {
      await loop.close();
    }
    const chain = await listen(publicHost, (req, res) => {
      const next: Record<string, string> = { '/': '/one', '/one': '/two', '/two': '/three' };
      if (next[req.url!]) res.writeHead(302, { location: next[req.url!] }).end();
      else res.end('arrived');
    });
    try {
      const followed = await fetchAs()(`http://${publicHost}:${chain.port}/`, { timeoutMs: 2000 });
      expect(followed.url).to.equal(`http://${publicHost}:${chain.port}/three`);
      expect(await text(followed.body)).to.equal('arrived');
    } finally {
      await chain.close();
    }
  });

  it('refuses credentials in the URL and schemes other than http(s)', async () => {
    for (const url of [`http://user:pass@${publicHost}:${publicServer.port}/`, `http://user@${publicHost}:${publicServer.port}/`, 'file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.2:70/', 'data:text/plain,hi', 'not a url']) {
      expect((await failureOf(fetchAs()(url, { timeoutMs: 2000 }))).failure, url).to.equal('refused');
    }
    expect(publicServer.received).to.deep.equal([]);
  });

  it('refuses a body whose Content-Length is over the cap, and cuts a chunked body once it passes the cap', async () => {
    const big = await listen(publicHost, (req, res) => {
      if (req.url === '/declared') return void res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
      // No Content-Length: the size shows only while streaming.
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (let index = 0; index < 10; index += 1) res.write(Buffer.alloc(500));
      res.end();
    });
    try {
      const declared = await failureOf(fetchAs()(`http://${publicHost}:${big.port}/declared`, { timeoutMs: 2000, maxBytes: 1000 }));
      expect(declared.failure).to.equal('too_large');
      const streamed = await fetchAs()(`http://${publicHost}:${big.port}/chunked`, { timeoutMs: 2000, maxBytes: 1000 });
      expect((await failureOf(text(streamed.body))).failure).to.equal('too_large');
    } finally {
      await big.close();
    }
  });

  it('gives up after the total time, also while the body is still arriving', async () => {
    const slow = await listen(publicHost, (req, res) => {
      if (req.url === '/headers-then-nothing') res.writeHead(200).write('a little');
      // '/nothing': never answers.
    });
    try {
      const started = Date.now();
      expect((await failureOf(fetchAs()(`http://${publicHost}:${slow.port}/nothing`, { timeoutMs: 300 }))).failure).to.equal('timeout');
      const response = await fetchAs()(`http://${publicHost}:${slow.port}/headers-then-nothing`, { timeoutMs: 300 });
      expect((await failureOf(text(response.body))).failure).to.equal('timeout');
      expect(Date.now() - started).to.be.below(3000);
    } finally {
      await slow.close();
    }
  });

  it('reports a closed port and an unknown name as unreachable', async () => {
    const closed = await listen(publicHost, () => undefined);
    await closed.close();
    expect((await failureOf(fetchAs()(`http://${publicHost}:${closed.port}/`, { timeoutMs: 2000 }))).failure).to.equal('unreachable');
    const nowhere: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect((await failureOf(fetchAs(nowhere)('http://nowhere.example/', { timeoutMs: 2000 }))).failure).to.equal('unreachable');
  });

  it('lets loopback through when the operator allow-lists it', async () => {
    const byName = createGuardedFetch({ allowHosts: ['localhost'], resolve: scriptedResolver([['127.0.0.1']]) });
    expect(await text((await byName(`http://localhost:${internalServer.port}/dev`, { timeoutMs: 2000 })).body)).to.equal('internal secrets');
    const byAddress = createGuardedFetch({ allowHosts: ['127.0.0.1'] });
    expect(await text((await byAddress(`http://127.0.0.1:${internalServer.port}/dev`, { timeoutMs: 2000 })).body)).to.equal('internal secrets');
    expect(internalServer.received).to.deep.equal(['GET /dev', 'GET /dev']);
  });
});
