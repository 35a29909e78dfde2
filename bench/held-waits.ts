/**
 * Holds 1,000 long polls or event streams open against an API process, for the long-poll section
 * (sections/longpoll.ts). It runs in a process of its own (held-waits-process.ts): held from the process that
 * also runs autocannon, the waits' 1,000 open requests would share the load generator's event loop and could slow
 * the plain polls measured beside them on the client's side.
 */
import { fork } from 'node:child_process';
import { Agent, request as httpRequest, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { root, stop } from './bench-kit.js';

export interface Target {
  url: string;
  key: string;
}

export type WaitKind = 'long polls' | 'event streams';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Holders {
  /** Waits the server holds (its answers are re-asked at once, so the count stays up). */
  readonly count: number;
  close(): void;
}

/**
 * `count` long polls, each `If-None-Match` with the request's current tag and `Prefer: wait=60`: the server holds
 * every one until the minute is over (nothing changes), and each is asked again the moment it is answered.
 */
export async function holdLongPolls(target: Target, ids: string[], etags: Map<string, string>): Promise<Holders> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const { hostname, port } = new URL(target.url);
  let closed = false;
  let sent = 0;
  const ask = (id: string): void => {
    if (closed) return;
    const sending = httpRequest({ hostname, port, path: `/api/v1/requests/${id}`, agent, headers: { 'x-api-key': target.key, prefer: 'wait=60', 'if-none-match': etags.get(id)! } }, (response) => {
      response.resume();
      response.on('end', () => ask(id));
    });
    sending.on('error', () => {});
    sending.on('finish', () => (sent += 1));
    sending.end();
  };
  ids.forEach(ask);
  while (sent < ids.length) await sleep(50);
  return {
    count: ids.length,
    close: () => {
      closed = true;
      agent.destroy();
    },
  };
}

/** `count` event streams, each held once its first event (the current state) has arrived. */
export async function holdStreams(target: Target, ids: string[]): Promise<Holders> {
  const { hostname, port } = new URL(target.url);
  const requests: ClientRequest[] = [];
  await Promise.all(
    ids.map(
      (id) =>
        new Promise<void>((resolve, reject) => {
          const sending = httpRequest({ hostname, port, path: `/api/v1/requests/${id}/events`, agent: false, headers: { 'x-api-key': target.key } }, (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => {
              text += chunk.toString();
              if (text.includes('\ndata: ')) resolve();
            });
            response.on('end', () => reject(new Error(`the stream of ${id} ended`)));
          });
          sending.on('error', reject);
          sending.end();
          requests.push(sending);
        }),
    ),
  );
  return { count: ids.length, close: () => requests.forEach((sending) => sending.destroy()) };
}

/** The waits held by a child process (held-waits-process.ts); `close` stops it, which closes them. */
export async function holdInChild(kind: WaitKind, target: Target, ids: string[], etags: Map<string, string>): Promise<Holders> {
  const child = fork(join(root, 'bench/held-waits-process.ts'), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the process holding ${kind} exited with ${code}`)));
    child.send({ kind, target, ids, etags: [...etags] });
  });
  return { count: ids.length, close: () => void stop(child) };
}
