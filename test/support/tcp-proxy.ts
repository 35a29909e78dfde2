/**
 * A TCP proxy on loopback in front of a shared service (MariaDB, RabbitMQ), so a test can take the service
 * "down" for its own connections only: the machine's server keeps serving every other test.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  host: string;
  port: number;
  /** Destroys every proxied socket at once, as a network failure would (no protocol-level close). */
  dropConnections(): void;
  /** While true, live connections are cut and new ones are closed on arrival: the service looks down. */
  setOutage(down: boolean): void;
  /** Chunks the clients have sent the service so far: on loopback, one per write of theirs that was not coalesced. */
  chunksToService(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  let chunksToService = 0;
  const server = createServer((client) => {
    if (down) return void client.destroy();
    const service = createConnection(upstream);
    for (const socket of [client, service]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        service.destroy();
      });
    }
    client.on('data', () => (chunksToService += 1));
    client.pipe(service);
    service.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no TCP address');
  const cutAll = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    host: '127.0.0.1',
    port: address.port,
    dropConnections: cutAll,
    chunksToService: () => chunksToService,
    setOutage(value) {
      down = value;
      if (value) cutAll();
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        server.close(() => resolve());
      }),
  };
}
