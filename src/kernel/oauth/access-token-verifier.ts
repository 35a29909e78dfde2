/**
 * Verifies the JWT access tokens our authorization server issued for the MCP resource (RFC 9068 shape):
 * signature with our own signing keys (no key is ever fetched from a URL named in the token), `iss`, `aud`
 * and expiry. A token for another audience, another issuer or signed by anything else is refused.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { publicJwk, type SigningJwk } from './oauth-keys.js';

export interface VerifiedAccessToken {
  /** The signed-in user the grant belongs to. */
  subject: string;
  clientId: string;
  scopes: string[];
  /** Our link behind the grant (claim `mg_link`): names the account and the key that owns requests. */
  linkId: string;
  expiresAtS: number;
}

export type TokenRejection = 'malformed' | 'signature' | 'issuer' | 'audience' | 'expired';

export class AccessTokenRejected extends Error {
  constructor(readonly reason: TokenRejection) {
    super(`access token refused: ${reason}`);
  }
}

export class AccessTokenVerifier {
  private readonly keys: Map<string, KeyObject>;

  constructor(
    signingKeys: readonly SigningJwk[],
    private readonly expected: { issuer: string; audience: string },
    private readonly clock: { now(): number },
  ) {
    this.keys = new Map(signingKeys.map((key) => [key.kid, createPublicKey({ key: publicJwk(key), format: 'jwk' })]));
  }

  /** True when `token` looks like a JWT (three base64url parts), so it is ours to verify rather than an API key. */
  static looksLikeJwt(token: string): boolean {
    return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
  }

  verify(token: string): VerifiedAccessToken {
    const [headerPart, payloadPart, signaturePart] = token.split('.');
    const header = decodeJson(headerPart);
    const claims = decodeJson(payloadPart);
    if (!header || !claims || header.alg !== 'RS256' || typeof header.kid !== 'string') throw new AccessTokenRejected('malformed');
    const key = this.keys.get(header.kid);
    if (!key || !verify('sha256', Buffer.from(`${headerPart}.${payloadPart}`), key, Buffer.from(signaturePart, 'base64url'))) throw new AccessTokenRejected('signature');
    if (claims.iss !== this.expected.issuer) throw new AccessTokenRejected('issuer');
    // A token may name several audiences; ours must be one of them and the token must be meant for no one else.
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (audiences.length !== 1 || audiences[0] !== this.expected.audience) throw new AccessTokenRejected('audience');
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= this.clock.now()) throw new AccessTokenRejected('expired');
    if (typeof claims.sub !== 'string' || typeof claims.client_id !== 'string' || typeof claims.mg_link !== 'string') throw new AccessTokenRejected('malformed');
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
    return { subject: claims.sub, clientId: claims.client_id, scopes, linkId: claims.mg_link, expiresAtS: claims.exp };
  }
}

function decodeJson(part: string | undefined): Record<string, unknown> | undefined {
  if (!part) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
