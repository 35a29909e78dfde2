/**
 * API keys: `mg_` + 32 random base62 characters, shown once at creation and stored only as a SHA-256
 * hash. Lookup is by hash (an index), then a constant-time comparison, so timing reveals nothing.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/index.js';
import { allScopes, newId, type AccountStore, type ApiKeyRecord, type Scope } from '../store/index.js';

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

export class ApiKeys {
  constructor(
    private readonly accounts: AccountStore,
    private readonly clock: { now(): number },
  ) {}

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
    const hash = hashApiKey(plaintext);
    const found = await this.accounts.findApiKeyByHash(hash);
    if (!found || !timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(hash, 'hex')) || found.revokedAtMs !== null) {
      throw new ApiError('MG_UNAUTHENTICATED', 'the API key is invalid or has been revoked');
    }
    // last-used is kept to the second: enough to audit a key, without a write on every call.
    await this.accounts.touchApiKey(found.id, this.clock.now(), 1000);
    return { apiKeyId: found.id, accountId: found.accountId, name: found.name, scopes: found.scopes };
  }
}

export function requireScope(key: AuthenticatedKey, scope: Scope): void {
  if (!key.scopes.includes(scope)) {
    throw new ApiError('MG_FORBIDDEN_SCOPE', `this endpoint needs the ${scope} scope; the key has ${key.scopes.join(', ') || 'none'}`);
  }
}
