/**
 * The SDK's transport answers 406 unless `Accept` lists both `application/json` and `text/event-stream`, but
 * our responses are always JSON (stateless, `enableJsonResponse`), so a client that lists only one of them
 * (or sends none, or a wildcard) is served as well. The header is rewritten before the transport reads it; the
 * transport reads `rawHeaders` (through @hono/node-server), so both views are rewritten.
 */
import type { IncomingMessage } from 'node:http';

const both = 'application/json, text/event-stream';

export function acceptJsonOrEventStream(req: IncomingMessage): void {
  const accept = req.headers.accept ?? '';
  if (accept.includes('application/json') && accept.includes('text/event-stream')) return;
  // A client that accepts neither (say only text/html) is left to the transport's 406.
  if (accept !== '' && !/application\/json|text\/event-stream|application\/\*|\*\/\*/.test(accept)) return;
  req.headers.accept = both;
  const rawHeaders: string[] = [];
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    if (req.rawHeaders[index].toLowerCase() !== 'accept') rawHeaders.push(req.rawHeaders[index], req.rawHeaders[index + 1]);
  }
  req.rawHeaders = [...rawHeaders, 'Accept', both];
}
