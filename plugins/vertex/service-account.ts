/**
 * Google's server-to-server OAuth 2.0 flow for a service account
 * (https://developers.google.com/identity/protocols/oauth2/service-account, "Preparing to make an authorized
 * API call" over HTTP/REST): a JWT signed RS256 with the key file's private key is exchanged at Google's
 * token endpoint for an access token that lasts about an hour, sent as `Authorization: Bearer` to the API.
 * Made with node:crypto: one RSA signature over two base64url segments does not justify an auth library.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ProviderError, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type VertexConfig, type VertexContext } from './vertex-config.js';

/** The token endpoint, which is also the assertion's required `aud`. */
const TOKEN_URL = 'https://oauth2.googleapis.com/token';
const TOKEN_HOST = 'https://oauth2.googleapis.com';
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The scope Google's own SDK asks for Vertex AI (googleapis/js-genai src/node/_node_auth.ts). */
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google takes assertions valid for at most one hour from `iat`. */
const ASSERTION_LIFETIME_SECONDS = 3600;
/** An access token is replaced this long before Google says it expires, so that none expires mid-call. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
const TOKEN_TIMEOUT_MS = 30_000;

export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: KeyObject;
}

/**
 * The key from `credentials_json` or `credentials_file`. A key that cannot be used fails the request for good,
 * naming the setting but never quoting it: the text is a secret, and JSON.parse's message quotes its input.
 */
async function loadServiceAccountKey(config: VertexConfig): Promise<ServiceAccountKey> {
  const setting = config.credentials_json ? 'credentials_json' : 'credentials_file';
  let text: string;
  if (config.credentials_json) {
    text = config.credentials_json;
  } else {
    try {
      text = await readFile(config.credentials_file ?? '', 'utf8');
    } catch (error) {
      throw unusableKey(setting, `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unusableKey(setting, 'it is not JSON');
  }
  const { client_email: clientEmail, private_key: pem, type } = (parsed ?? {}) as Record<string, unknown>;
  if (type !== 'service_account') throw unusableKey(setting, 'it is not a service-account key ("type" is not "service_account")');
  if (typeof clientEmail !== 'string' || !clientEmail) throw unusableKey(setting, 'client_email is missing');
  if (typeof pem !== 'string' || !pem) throw unusableKey(setting, 'private_key is missing');
  try {
    return { clientEmail, privateKey: createPrivateKey(pem) };
  } catch {
    throw unusableKey(setting, 'private_key is not a PEM private key');
  }
}

function unusableKey(setting: string, why: string): ProviderError {
  return new ProviderError(`${PROVIDER_ID}: providers.${PROVIDER_ID}.${setting} is not a usable service-account key: ${why}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'bad_credentials' });
}

/** The signed JWT of the documented shape: header `{alg: RS256, typ: JWT}`, claims iss, scope, aud, exp, iat. */
export function signAssertion(key: ServiceAccountKey, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT' };
  const claims = { iss: key.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: TOKEN_URL, exp: iat + ASSERTION_LIFETIME_SECONDS, iat };
  const unsigned = `${base64url(header)}.${base64url(claims)}`;
  // RS256 is RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), node's default padding for an RSA key.
  return `${unsigned}.${sign('sha256', Buffer.from(unsigned), key.privateKey).toString('base64url')}`;
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * The token endpoint's errors are OAuth's `{"error": "invalid_grant", "error_description": "..."}`
 * (RFC 6749 §5.2); `invalid_grant` is what a revoked key, a wrong clock or a bad signature earn.
 */
function describeTokenError(body: unknown): { message?: string; code?: string } {
  const { error, error_description: description } = (body ?? {}) as { error?: unknown; error_description?: unknown };
  if (typeof error !== 'string') return {};
  return { message: `access token refused: ${error}${typeof description === 'string' && description ? ` (${description})` : ''}`, code: error };
}

interface CachedToken {
  value: string;
  /** When the clock passes this, the token is exchanged anew. */
  refreshAtMs: number;
}

/**
 * One cached access token per configured plugin. Keyed by the settings object, which the plugin registry
 * hands every call of one registration: new settings (a restart, a test's harness) start without a token.
 */
const tokens = new WeakMap<VertexConfig, CachedToken>();

/** A valid access token: the cached one until shortly before it expires, otherwise a fresh exchange. */
export async function accessToken(ctx: VertexContext): Promise<string> {
  const cached = tokens.get(ctx.config);
  if (cached && ctx.clock.now() < cached.refreshAtMs) return cached.value;
  const fresh = await exchangeAssertion(ctx);
  tokens.set(ctx.config, fresh);
  return fresh.value;
}

/** Drops a token the API refused (revoked, or expired earlier than our clock thinks), unless a newer one replaced it. */
export function forgetAccessToken(ctx: VertexContext, value: string): void {
  if (tokens.get(ctx.config)?.value === value) tokens.delete(ctx.config);
}

async function exchangeAssertion(ctx: VertexContext): Promise<CachedToken> {
  const key = await loadServiceAccountKey(ctx.config);
  const issuedAtMs = ctx.clock.now();
  const http = ctx.http({ provider: PROVIDER_ID, baseUrl: TOKEN_HOST, timeoutMs: TOKEN_TIMEOUT_MS, describeError: describeTokenError });
  const { data } = await http.request({
    method: 'POST',
    path: 'token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: signAssertion(key, issuedAtMs) }).toString(),
    // Buying a token creates no vendor job: a resend is harmless, so the call is retried like a GET and is
    // never recorded as a submission.
    idempotent: true,
  });
  const value = requireField<string>(data, 'access_token', PROVIDER_ID);
  const expiresInSeconds = requireField<number>(data, 'expires_in', PROVIDER_ID, 'number');
  // A token that lives less than the margin still serves the call that bought it, and no other.
  return { value, refreshAtMs: issuedAtMs + expiresInSeconds * 1000 - REFRESH_MARGIN_MS };
}
