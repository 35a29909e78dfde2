/**
 * API keys: `mg_` + 32 random base62 characters, shown once at creation and stored only as a SHA-256
 * hash. Lookup is by hash (an index), then a constant-time comparison, so timing reveals nothing.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/index.js';
import { allScopes, newId, type AccountStore, type ApiKeyRecord, type Scope } from '../store/index.js';
import { LastUseRecorder } from './last-use-recorder.js';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface AuthenticatedKey {
  apiKeyId: string;
  accountId: string;
  name: string;
  scopes: Scope[];
}

export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}

function generateSecret(): string {
  let secret = '';
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  while (secret.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && secret.length < 32) secret += base62[byte % 62];
    }
  }
  return `mg_${secret}`;
}

export function parseScopes(text: string): Scope[] {
  const scopes = text.split(',').map((scope) => scope.trim()).filter(Boolean);
  for (const scope of scopes) {
    if (!allScopes.includes(scope as Scope)) throw new Error(`unknown scope ${scope}; known scopes: ${allScopes.join(', ')}`);
  }
  return [...new Set(scopes)] as Scope[];
}

/**
 * How long a verified key is trusted without reading it again: the bound on how long a key revoked
 * elsewhere (the CLI, another API process) can still read. Creates are not bound by it: the admission
 * transaction checks the key itself (store/request-admissions.ts), so a revoked key is never charged.
 */
export const apiKeyCacheMs = 2_000;

/**
 * Verified keys are cached for `apiKeyCacheMs` so polling does not cost a key lookup per call: a key
 * revoked through this process stops working at once, one revoked elsewhere within the cache time.
 */
export class ApiKeys {
  private readonly cache = new Map<string, { key: AuthenticatedKey; expiresAtMs: number }>();
  /** Each key's last use, to the second: enough to audit a key, without a write per call (last-use-recorder.ts). */
  private readonly uses: LastUseRecorder;

  constructor(
    private readonly accounts: AccountStore,
    private readonly clock: { now(): number },
    private readonly options: { cacheMs?: number; touchResolutionMs?: number; onTouchError?: (error: unknown) => void } = {},
  ) {
    this.uses = new LastUseRecorder((uses, resolutionMs) => accounts.touchApiKeys(uses, resolutionMs), {
      resolutionMs: options.touchResolutionMs ?? 1000,
      onError: (error) => options.onTouchError?.(error),
    });
  }

  /** Writes the last uses still held; at shutdown, before the store closes. */
  close(): Promise<void> {
    return this.uses.close();
  }

  /** Revokes a key by id or prefix; effective at once in this process. */
  async revoke(idOrPrefix: string): Promise<number> {
    const revoked = await this.accounts.revokeApiKey(idOrPrefix, this.clock.now());
    this.cache.clear();
    return revoked;
  }

  /** Revokes one key of one account (the console's revoke); false when the account has no such live key. */
  async revokeOfAccount(accountId: string, keyId: string): Promise<boolean> {
    const revoked = await this.accounts.revokeApiKeyOfAccount(keyId, accountId, this.clock.now());
    this.cache.clear();
    return revoked === 1;
  }

  /** An account's keys with prefix and last use, newest first (never a hash or a secret). */
  listOfAccount(accountId: string): Promise<ApiKeyRecord[]> {
    return this.accounts.listApiKeysOfAccount(accountId);
  }

  /**
   * The key `plaintext` belongs to, if it is `keyId` of `accountId`: lets the console show a freshly created
   * secret that the browser carried back, without the server keeping any plaintext.
   */
  async matchesKey(plaintext: string, accountId: string, keyId: string): Promise<boolean> {
    const found = await this.accounts.findApiKeyByHash(hashApiKey(plaintext));
    return found !== undefined && found.id === keyId && found.accountId === accountId && found.revokedAtMs === null;
  }

  /** Creates a key; the plaintext is returned here and never again. */
  async create(accountId: string, name: string, scopes: Scope[]): Promise<{ plaintext: string; record: ApiKeyRecord }> {
    const plaintext = generateSecret();
    const record: ApiKeyRecord = {
      id: newId('key', this.clock.now()),
      accountId,
      name,
      keyPrefix: plaintext.slice(0, 11),
      scopes,
      createdAtMs: this.clock.now(),
      lastUsedAtMs: null,
      revokedAtMs: null,
    };
    await this.accounts.insertApiKey({ ...record, keyHash: hashApiKey(plaintext) });
    return { plaintext, record };
  }

  /** Resolves `x-api-key` to its key; 401 when missing, unknown or revoked. Records the use. */
  async authenticate(plaintext: string | undefined): Promise<AuthenticatedKey> {
    if (!plaintext) throw new ApiError('MG_UNAUTHENTICATED', 'send your API key in the x-api-key header');
    const now = this.clock.now();
    // Keyed by the presented key itself: a cache hit costs a map lookup instead of a SHA-256 per call. The
    // process sees every key in its headers anyway; the store keeps only hashes.
    const cached = this.cache.get(plaintext);
    if (cached && cached.expiresAtMs > now) {
      this.uses.record(cached.key.apiKeyId, now);
      return cached.key;
    }
    const hash = hashApiKey(plaintext);
    const found = await this.accounts.findApiKeyByHash(hash);
    if (!found || !timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(hash, 'hex')) || found.revokedAtMs !== null) {
      this.cache.delete(plaintext);
      throw new ApiError('MG_UNAUTHENTICATED', 'the API key is invalid or has been revoked');
    }
    const key: AuthenticatedKey = { apiKeyId: found.id, accountId: found.accountId, name: found.name, scopes: found.scopes };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(plaintext, { key, expiresAtMs: now + (this.options.cacheMs ?? apiKeyCacheMs) });
    this.uses.record(found.id, now);
    return key;
  }
}

export function requireScope(key: AuthenticatedKey, scope: Scope): void {
  if (!key.scopes.includes(scope)) {
    throw new ApiError('MG_FORBIDDEN_SCOPE', `this endpoint needs the ${scope} scope; the key has ${key.scopes.join(', ') || 'none'}`);
  }
}
