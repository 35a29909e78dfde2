/**
 * The loopback redirect URI of a native OAuth client (RFC 8252 section 7.3): a small HTTP server on
 * 127.0.0.1 that records every URL the browser is sent back to and answers with a plain page, as a desktop
 * MCP client does while it waits for the authorization code.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackCallback {
  /** `http://127.0.0.1:<port>/callback`, the redirect URI to register. */
  url: string;
  /** Every request for the callback path, in order, as absolute URLs (a browser's /favicon.ico is not one). */
  received: URL[];
  close(): Promise<void>;
}

const callbackPath = '/callback';

export async function startLoopbackCallback(): Promise<LoopbackCallback> {
  const received: URL[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname !== callbackPath) {
      response.writeHead(404).end();
      return;
    }
    received.push(url);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Connected</title><p>You can close this window and return to the application.</p>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin + callbackPath,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
