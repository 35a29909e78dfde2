/**
 * One socket write per turn of the event loop, however many AMQP frames that turn sends.
 *
 * amqplib writes every frame with a `write()` of its own: its channels queue frames, and its multiplexer copies
 * them to the socket one by one on the next `setImmediate`. A socket that is not corked hands each of those writes
 * to the kernel at once, so the creates one admission batch answers cost their API process a `write(2)` per
 * publish, and a worker's acknowledgements of one finished batch one call each (on loopback the broker's side of
 * each packet is processed inside that call too; docs/performance-notes.md, section 3).
 * Corking the socket at the first write of a turn and uncorking it once the turn's synchronous work is done
 * (`process.nextTick`) sends them as one `writev(2)`: the same bytes in the same order, and no later in any way
 * that matters, since the uncork runs before any timer or I/O callback.
 *
 * The connection is opened with `noDelay` too (see `amqpSocketOptions`): amqplib leaves Nagle's algorithm on by
 * default, which holds a small frame back until the broker acknowledges the previous one; with the frames of a
 * turn already gathered into one write there is nothing left for Nagle to gather, only latency to add.
 */
import { Socket } from 'node:net';

/** Socket options for `amqp.connect`: frames go out as soon as their turn is written (see above). */
export const amqpSocketOptions = { noDelay: true } as const;

const coalescing = Symbol('mediagate.coalescing-writes');

type CoalescedSocket = Socket & { [coalescing]?: true };

/**
 * Makes `socket` cork at the first write of each turn and uncork at the end of it. Idempotent. Changes nothing
 * but when the bytes are handed to the kernel: `write()` returns and calls back as before.
 */
export function coalesceWritesPerTurn(socket: Socket): void {
  const marked = socket as CoalescedSocket;
  if (marked[coalescing]) return;
  marked[coalescing] = true;
  const write = socket.write;
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  socket.write = function coalescedWrite(this: Socket, ...args: Parameters<Socket['write']>): boolean {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as Socket['write'];
}

/** Whether `coalesceWritesPerTurn` was applied to `socket`. */
export function isCoalescingWrites(socket: unknown): boolean {
  return socket instanceof Socket && (socket as CoalescedSocket)[coalescing] === true;
}

/**
 * The socket under an amqplib connection (`ChannelModel.connection.stream`, not in its type declarations), for
 * `coalesceWritesPerTurn`. Undefined when a future amqplib keeps it elsewhere: then frames are written one by one,
 * as amqplib does by itself, and nothing else changes.
 */
export function amqpSocketOf(model: object): Socket | undefined {
  const stream = (model as { connection?: { stream?: unknown } }).connection?.stream;
  return stream instanceof Socket ? stream : undefined;
}

/** Applies `coalesceWritesPerTurn` to an amqplib connection's socket, when it can be found. */
export function coalesceAmqpWrites(model: object): void {
  const socket = amqpSocketOf(model);
  if (socket) coalesceWritesPerTurn(socket);
}
