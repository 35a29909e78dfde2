/**
 * The one way the gateway fetches a URL that a client or a vendor handed it (source media, vendor outputs,
 * webhooks). Only http(s) without credentials; every host is resolved once, every address checked against
 * the outbound address policy, and the connection is made to the address that was checked (node's `lookup`
 * hook), so a name that answers differently a moment later (DNS rebinding) cannot redirect the socket.
 * Redirects are followed by hand, each hop checked the same way; size and total time are capped.
 *
 * Failures carry a precise `detail` for the server log only: clients get `unreachableMessage`, one sentence
 * for "refused" and "unreachable" alike, so an error never tells whether an internal host or port exists.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import type { Logger } from 'pino';
import { addressRefusal, OutboundAllowList } from './outbound-address-policy.js';

/** Resolves a host name to every address it has (IPv4 and IPv6); tests inject their own. */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export type OutboundFailure = 'refused' | 'unreachable' | 'timeout' | 'too_large' | 'too_many_redirects';

export class OutboundFetchError extends Error {
  override readonly name = 'OutboundFetchError';
  constructor(
    readonly failure: OutboundFailure,
    /** For the server log: which address, which range, which network error. Never shown to a client. */
    readonly detail: string,
    /** `too_large` refused up front: the size the server declared. */
    readonly declaredBytes?: number,
  ) {
    super(`${failure}: ${detail}`);
  }

  /** Refused by policy and unreachable look the same from outside: that is the point. */
  get isUnreachable(): boolean {
    return this.failure === 'refused' || this.failure === 'unreachable';
  }
}

/** What a client reads when `what` (a field name, "the provider's output") could not be fetched. */
export function unreachableMessage(what: string): string {
  return `could not fetch ${what}: the URL is not reachable from this service`;
}

export interface OutboundPolicyOptions {
  /** `outbound.allow_hosts`: host names, IP addresses or CIDR blocks let through (local development). */
  allowHosts?: readonly string[];
  resolve?: HostResolver;
  log?: Logger;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Redirects followed (checked hop by hop); 0 hands a 3xx back as the answer. Default 3. */
  maxRedirects?: number;
  /** Cap on the response body: refused by Content-Length, else the body stream fails once past it. */
  maxBytes?: number;
  /** The whole exchange, redirects and body included. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
  /** The body, capped at `maxBytes`; consume or destroy it. Fails with an OutboundFetchError. */
  body: Readable;
}

/**
 * What makes a URL unfetchable whatever it resolves to: the URL parser refuses it, it is not http(s), or it
 * carries credentials. Shared with the checks made when a URL is given (a webhook_url at create), so both
 * places refuse the same URLs.
 */
export function outboundUrlShape(raw: string): { url: URL; refusal?: 'scheme' | 'credentials' } | { url?: undefined; refusal: 'invalid' } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { url, refusal: 'scheme' };
  if (url.username || url.password) return { url, refusal: 'credentials' };
  return { url };
}

export type GuardedFetch = (url: string, request: OutboundRequest) => Promise<OutboundResponse>;

const defaultMaxRedirects = 3;

const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function createGuardedFetch(options: OutboundPolicyOptions = {}): GuardedFetch {
  const allowList = new OutboundAllowList(options.allowHosts ?? []);
  const resolve = options.resolve ?? systemResolver;

  /** Scheme, credentials and literal addresses; named hosts are checked when they are resolved. */
  const checkTarget = (raw: string): URL => {
    const shape = outboundUrlShape(raw);
    if (shape.refusal === 'invalid') throw new OutboundFetchError('refused', 'not a valid URL');
    if (shape.refusal === 'scheme') throw new OutboundFetchError('refused', `scheme ${shape.url.protocol} is not http(s)`);
    if (shape.refusal === 'credentials') throw new OutboundFetchError('refused', `${shape.url.host}: credentials in the URL`);
    const url = shape.url;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // net.connect skips the lookup hook for IP literals, so they are checked here.
    if (isIP(host) && !allowList.allowsHost(host)) {
      const refusal = addressRefusal(host);
      if (refusal) throw new OutboundFetchError('refused', `${host} is ${refusal}`);
    }
    return url;
  };

  const resolveChecked = async (hostname: string): Promise<LookupAddress[]> => {
    let addresses: LookupAddress[];
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      throw new OutboundFetchError('unreachable', `${hostname} does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (addresses.length === 0) throw new OutboundFetchError('unreachable', `${hostname} has no address`);
    if (allowList.allowsHost(hostname)) return addresses;
    // One internal address is enough to refuse: the socket may pick any of them.
    for (const { address } of addresses) {
      const refusal = allowList.allowsAddress(address) ? undefined : addressRefusal(address);
      if (refusal) throw new OutboundFetchError('refused', `${hostname} resolves to ${address} (${refusal})`);
    }
    return addresses;
  };

  /** Hands the socket the addresses just checked; no second resolution happens behind our back. */
  const pinnedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolveChecked(hostname).then(
      (addresses) => {
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };

  const send = (url: URL, request: OutboundRequest, signal: AbortSignal, timedOut: () => boolean): Promise<IncomingMessage> =>
    new Promise((resolvePromise, reject) => {
      const client = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = client(url, { method: request.method ?? 'GET', headers: request.headers, signal, agent: false, lookup: pinnedLookup }, resolvePromise);
      outgoing.on('error', (error) => reject(asOutboundError(error, timedOut(), url)));
      outgoing.end(request.body);
    });

  return async function guardedFetch(raw, request) {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const timedOut = () => signal.aborted;
    const maxRedirects = request.maxRedirects ?? defaultMaxRedirects;
    const maxBytes = request.maxBytes ?? Number.POSITIVE_INFINITY;
    let current = raw;
    try {
      for (let hop = 0; ; hop += 1) {
        const url = checkTarget(current);
        const response = await send(url, request, signal, timedOut);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (maxRedirects > 0 && status >= 300 && status < 400 && location) {
          response.destroy();
          if (hop >= maxRedirects) throw new OutboundFetchError('too_many_redirects', `more than ${maxRedirects} redirects from ${raw.slice(0, 200)}`);
          current = new URL(location, url).href;
          continue;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          response.destroy();
          throw new OutboundFetchError('too_large', `${url.host} declares ${declared} bytes, more than the ${maxBytes} allowed`, declared);
        }
        return { status, headers: response.headers, url: url.href, body: cappedBody(response, maxBytes, timedOut, url) };
      }
    } catch (error) {
      const failure = error instanceof OutboundFetchError ? error : asOutboundError(error, timedOut(), undefined);
      options.log?.info({ outboundHost: safeHost(current), failure: failure.failure, detail: failure.detail }, 'outbound fetch failed');
      throw failure;
    }
  };
}

/** The response body as a stream that fails once more than `maxBytes` went through, or when the exchange is cut. */
function cappedBody(response: IncomingMessage, maxBytes: number, timedOut: () => boolean, url: URL): Readable {
  let seen = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new OutboundFetchError('too_large', `${url.host} sent more than the ${maxBytes} bytes allowed`));
      else done(null, chunk);
    },
  });
  response.on('error', (error) => body.destroy(asOutboundError(error, timedOut(), url)));
  // A body its caller has not started reading (yet) must not crash the process when the exchange is cut;
  // readers still get the error through their own listener (pipeline, async iteration).
  body.on('error', () => undefined);
  body.on('close', () => response.destroy());
  response.pipe(body);
  return body;
}

function asOutboundError(error: unknown, timedOut: boolean, url: URL | undefined): OutboundFetchError {
  if (error instanceof OutboundFetchError) return error;
  const where = url ? `${url.host}: ` : '';
  if (timedOut) return new OutboundFetchError('timeout', `${where}no complete answer in time`);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new OutboundFetchError('unreachable', `${where}${code ?? (error as Error | undefined)?.message ?? String(error)}`);
}

/** Logs carry the host only: vendor URLs hold signed tokens in their query strings. */
function safeHost(raw: string): string {
  try {
    return new URL(raw).host;
  } catch {
    return '(not a URL)';
  }
}
