/**
 * A full, memory-reducing garbage collection in another Node process, through its inspector (started with
 * `--inspect=127.0.0.1:<port>`): the Chrome DevTools Protocol's `HeapProfiler.collectGarbage` over the inspector's
 * WebSocket. The long-poll section reads RSS right after it, so that two readings compare what the process keeps
 * rather than how much garbage V8 had not returned yet (one reading swings by tens of MB without it).
 *
 * Node 20 has no WebSocket client without a flag, and one request needs little of the protocol (RFC 6455): the
 * upgrade, one masked text frame out, unmasked frames in until the answer to our id.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export async function collectGarbage(inspectorPort: number): Promise<void> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const { pathname } = new URL(targets[0]!.webSocketDebuggerUrl);
  const socket = connect(inspectorPort, '127.0.0.1');
  // A bench must not wait forever on a process that stopped answering.
  socket.setTimeout(30_000, () => socket.destroy(new Error(`the inspector on port ${inspectorPort} did not answer within 30 s`)));
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${inspectorPort}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    const frames = framesFrom(socket);
    // The first item is the upgrade: a frame sent before it may arrive in the handshake's read, which the inspector drops.
    await frames.next();
    socket.write(maskedTextFrame(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' })));
    for await (const text of frames) {
      if (text === undefined) continue;
      const message = JSON.parse(text) as { id?: number; error?: { message: string } };
      if (message.id !== 1) continue;
      if (message.error) throw new Error(`HeapProfiler.collectGarbage: ${message.error.message}`);
      return;
    }
    throw new Error('the inspector closed before it answered');
  } finally {
    socket.destroy();
  }
}

function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const length = payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}

/**
 * `undefined` once the server answered the upgrade with 101, then the text frames it sends (small unfragmented frames
 * are all the inspector sends here).
 */
async function* framesFrom(socket: Socket): AsyncGenerator<string | undefined> {
  let buffered = Buffer.alloc(0);
  let upgraded = false;
  for await (const chunk of socket) {
    buffered = Buffer.concat([buffered, chunk as Buffer]);
    if (!upgraded) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) continue;
      const status = buffered.subarray(0, buffered.indexOf('\r\n')).toString();
      if (!/ 101 /.test(status)) throw new Error(`the inspector refused the upgrade: ${status}`);
      buffered = buffered.subarray(end + 4);
      upgraded = true;
      yield undefined;
    }
    while (buffered.length >= 2) {
      let length = buffered[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) break;
        length = buffered.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffered.length < 10) break;
        length = Number(buffered.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffered.length < offset + length) break;
      const opcode = buffered[0]! & 0x0f;
      const payload = buffered.subarray(offset, offset + length);
      buffered = buffered.subarray(offset + length);
      if (opcode === 0x1) yield payload.toString('utf8');
      if (opcode === 0x8) return;
    }
  }
}
