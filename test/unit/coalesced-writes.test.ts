import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { coalesceWritesPerTurn, isCoalescingWrites } from '../../src/kernel/queue/coalesced-writes.js';
import { countSocketWrites } from '../support/socket-writes.js';

describe('coalesceWritesPerTurn', () => {
  let server: Server;
  let received: Buffer[];
  let sockets: Socket[];

  beforeEach(async () => {
    received = [];
    sockets = [];
    server = createServer((peer) => peer.on('data', (chunk: Buffer) => received.push(chunk)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });

  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  async function connected(): Promise<Socket> {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    sockets.push(socket);
    await once(socket, 'connect');
    return socket;
  }

  async function receivedBytes(length: number): Promise<string> {
    for (let tries = 0; Buffer.concat(received).length < length && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    return Buffer.concat(received).toString();
  }

  it('hands the writes of one turn to the kernel as one, bytes and order unchanged', async () => {
    const socket = await connected();
    coalesceWritesPerTurn(socket);
    const kernel = countSocketWrites(socket);
    const frames = Array.from({ length: 20 }, (_, i) => `frame-${String(i).padStart(2, '0')};`);
    const called: number[] = [];
    frames.forEach((frame, i) => socket.write(frame, () => called.push(i)));

    expect(await receivedBytes(frames.join('').length)).to.equal(frames.join(''));
    expect(kernel.calls()).to.equal(1);
    expect(called).to.deep.equal(frames.map((_, i) => i));
  });

  it('writes each turn as soon as it ends: a later turn is a write of its own', async () => {
    const socket = await connected();
    coalesceWritesPerTurn(socket);
    coalesceWritesPerTurn(socket);
    const kernel = countSocketWrites(socket);
    socket.write('a;');
    socket.write('b;');
    await new Promise((resolve) => setImmediate(resolve));
    socket.write('c;');

    expect(await receivedBytes(6)).to.equal('a;b;c;');
    expect(kernel.calls()).to.equal(2);
    expect(isCoalescingWrites(socket)).to.equal(true);
  });

  it('is what a plain socket does not do: each write is one for the kernel', async () => {
    const socket = await connected();
    const kernel = countSocketWrites(socket);
    for (let i = 0; i < 5; i += 1) socket.write(`${i};`);

    expect(await receivedBytes(10)).to.equal('0;1;2;3;4;');
    expect(kernel.calls()).to.equal(5);
    expect(isCoalescingWrites(socket)).to.equal(false);
  });
});
