/**
 * One public URL in front of several API processes, as a load balancer would be, except that the test says
 * which process answers: `routeTo(url)` sends every following request there. Works at the HTTP level, one
 * upstream request per incoming request, so a kept-alive client connection does not stick to the process
 * it first reached. The `Host` header is passed through unchanged: the processes see the public host.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

export interface SwitchingProxy {
  /** `http://127.0.0.1:<port>`: the URL to give the processes as their public URL. */
  url: string;
  routeTo(upstreamUrl: string): void;
  /** How many requests each upstream (by URL) has been sent. */
  served: Map<string, number>;
  close(): Promise<void>;
}

export async function startSwitchingProxy(): Promise<SwitchingProxy> {
  let upstream: URL | undefined;
  const served = new Map<string, number>();
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    if (!upstream) return void outgoing.writeHead(502).end('no upstream chosen: call routeTo() first');
    served.set(upstream.origin, (served.get(upstream.origin) ?? 0) + 1);
    const upstreamRequest = request(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent: false },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstreamRequest.on('error', (error) => (outgoing.headersSent ? outgoing.destroy() : outgoing.writeHead(502).end(`upstream failed: ${error.message}`)));
    incoming.pipe(upstreamRequest);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    routeTo(upstreamUrl) {
      upstream = new URL(upstreamUrl);
    },
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
