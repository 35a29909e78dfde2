/**
 * A client of `GET /api/v1/requests/{id}/events` for tests and the bench: opens the stream with fetch and parses it
 * as the WHATWG event-stream format says (fields `id`, `event`, `data`, `retry`; comment lines start with `:`), keeping
 * every event and comment in arrival order with the time it arrived.
 */

export interface StreamEvent {
  id: string | undefined;
  data: string;
  /** `performance.now()` when the blank line that ends the event arrived. */
  at: number;
  /** The same moment on the wall clock (Date.now()), to compare with the server's timestamps. */
  receivedAtMs: number;
}

export interface EventStreamClient {
  status: number;
  headers: Headers;
  events: StreamEvent[];
  comments: string[];
  /** The `retry:` value the server asked for, if any. */
  retryMs: number | undefined;
  /** Resolves when the server has ended the stream (or the client closed it). */
  ended: Promise<void>;
  /** Resolves with the first event `check` accepts (or rejects if the stream ends first, or after `deadlineMs`). */
  waitForEvent(check: (event: StreamEvent) => boolean, deadlineMs?: number): Promise<StreamEvent>;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string>): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const listeners = new Set<() => void>();
  let retryMs: number | undefined;
  let done = false;
  const notify = () => listeners.forEach((listener) => listener());

  const read = async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    let id: string | undefined;
    let data: string[] = [];
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline: number;
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (data.length > 0) events.push({ id, data: data.join('\n'), at: performance.now(), receivedAtMs: Date.now() });
            id = undefined;
            data = [];
            notify();
            continue;
          }
          if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
            continue;
          }
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') id = value;
          else if (field === 'data') data.push(value);
          else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
        }
      }
    } catch {
      // Aborted by close(), or cut off: the events so far stand.
    } finally {
      done = true;
      notify();
    }
  };
  const ended = read();

  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    get retryMs() {
      return retryMs;
    },
    ended,
    waitForEvent(check, deadlineMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no matching event within ${deadlineMs} ms; got ${events.length} events`)), deadlineMs);
        const finish = (error?: Error, event?: StreamEvent) => {
          clearTimeout(timer);
          listeners.delete(look);
          if (error) reject(error);
          else resolve(event!);
        };
        const look = () => {
          const found = events.find(check);
          if (found) finish(undefined, found);
          else if (done) finish(new Error(`the stream ended without a matching event; got ${events.length} events`));
        };
        listeners.add(look);
        look();
      });
    },
    close: () => abort.abort(),
  } as EventStreamClient;
}
