/**
 * A vendor on 127.0.0.1 that records every request it fully received and answers as the test scripts it:
 * with a status and body, by hanging (the submission arrived, the answer never comes), or by destroying
 * the socket after reading the body. Real HTTP, so the client's own socket behaviour is what is tested.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type VendorReply =
  | { status: number; json?: unknown; headers?: Record<string, string> }
  | { hang: true }
  | { destroySocket: true };

export interface LoopbackVendor {
  url: string;
  received: ReceivedRequest[];
  /** Requests received with this method and path. */
  calls(method: string, path: string): ReceivedRequest[];
  /** Sets how the next requests are answered (by default 404). */
  answer(reply: (request: ReceivedRequest, index: number) => VendorReply): void;
  close(): Promise<void>;
}

export async function startLoopbackVendor(): Promise<LoopbackVendor> {
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let reply: (request: ReceivedRequest, index: number) => VendorReply = () => ({ status: 404, json: { error: 'not scripted' } });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const scripted = reply(request, received.length - 1);
      if ('hang' in scripted) return void hanging.add(res);
      if ('destroySocket' in scripted) return void req.socket.destroy();
      res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
      res.end(scripted.json === undefined ? '' : JSON.stringify(scripted.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    calls: (method, path) => received.filter((request) => request.method === method && request.path === path),
    answer(next) {
      reply = next;
    },
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
