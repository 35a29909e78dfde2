/**
 * `Prefer: wait=N` (RFC 7240 §4.3) on the create and on the poll: the answer is held until the request reaches the
 * state the client waits for, or until N seconds (at most 60) have passed, the client has gone, or the process is
 * shutting down. The holding is a kernel RequestWatch, woken by change notices: no query per waiter while it waits.
 */
import type { Context } from 'koa';
import { requestStateTag, type RequestWatch, type RequestWatches } from '../../kernel/lifecycle/index.js';
import type { RequestViewRecord } from '../../kernel/store/index.js';

/** Longest `Prefer: wait` honoured, in seconds. */
export const maxWaitSeconds = 60;

/** `Prefer: wait=N`: seconds to hold the answer for, capped at 60; undefined without the preference. */
export function preferredWait(ctx: Context): number | undefined {
  const match = /(?:^|[,;\s])wait=(\d+)/i.exec(ctx.get('prefer'));
  if (!match) return undefined;
  return Math.min(maxWaitSeconds, Number(match[1]));
}

/**
 * Waits on `watch`, from the state `start` its caller read after opening it, until `wanted(state)` or the wait is
 * over. Returns the newest state seen and whether it is a wanted one.
 */
export async function waitOn(
  ctx: Context,
  watch: RequestWatch,
  start: RequestViewRecord,
  wanted: (record: RequestViewRecord) => boolean,
  waitMs: number,
): Promise<{ record: RequestViewRecord; reached: boolean }> {
  const deadline = performance.now() + waitMs;
  // A client that goes away gives its watch back at once rather than when its wait would have ended.
  const clientLeft = (): void => watch.end();
  ctx.res.once('close', clientLeft);
  if (clientGone(ctx)) watch.end();
  try {
    let record = start;
    while (!wanted(record)) {
      const next = await watch.next(requestStateTag(record), deadline);
      if (!next) return { record, reached: false };
      record = next;
    }
    return { record, reached: true };
  } finally {
    ctx.res.off('close', clientLeft);
  }
}

/**
 * At shutdown a wait ends early and its connection is closed after the answer: an idle keep-alive connection would
 * hold the server's close until the shutdown timeout.
 */
export function closeAfterAnswerAtShutdown(ctx: Context, watches: Pick<RequestWatches, 'closing'>): void {
  if (watches.closing) ctx.set('Connection', 'close');
}

/** The connection closed before the answer (the response no longer has a live socket). */
export function clientGone(ctx: Context): boolean {
  const socket = ctx.res.socket;
  return !socket || socket.destroyed;
}
