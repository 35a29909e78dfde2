/**
 * The authorization server's secrets, generated at first start and kept in the store so every API process
 * signs and verifies with the same keys:
 * - signing keys (RSA 2048, RS256: the algorithm every JWT library verifies), newest first. The newest signs;
 *   older ones stay in the JWKS so tokens they signed keep verifying until they expire.
 * - cookie keys for oidc-provider's signed cookies, unless the operator sets `oauth.cookie_keys`.
 * Rotation: `rotateSigningKey()` (the CLI's `mediagate oauth rotate-signing-key`) adds a new key; processes
 * pick it up at their next start. `retireSigningKeysBefore()` drops old ones after the access-token TTL.
 */
import { generateKeyPairSync, randomBytes, createHash } from 'node:crypto';
import type { SqlDatabase } from '../store/sql-executor.js';
import { isDuplicateKeyError } from '../store/transient-retry.js';

/** A private RSA JWK as oidc-provider's `jwks` option takes it. */
export interface SigningJwk {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
  d: string;
  p: string;
  q: string;
  dp: string;
  dq: string;
  qi: string;
}

/** The public half, as the resource server verifies with it. */
export type PublicSigningJwk = Pick<SigningJwk, 'kty' | 'kid' | 'alg' | 'use' | 'n' | 'e'>;

export interface OAuthKeyMaterial {
  /** Newest first. */
  signingKeys: SigningJwk[];
  cookieKeys: string[];
}

export class OAuthKeys {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: { now(): number },
  ) {}

  /** The current keys, creating a signing key and a cookie key the first time. */
  async load(): Promise<OAuthKeyMaterial> {
    const signingKeys = await this.activeOrFirstKeys('signing', () => JSON.stringify(newSigningKey()));
    const cookieKeys = await this.activeOrFirstKeys('cookie', () => randomBytes(32).toString('base64url'));
    return { signingKeys: signingKeys.map((material) => JSON.parse(material) as SigningJwk), cookieKeys };
  }

  /** Adds a signing key that signs from the next start on; the previous keys keep verifying. */
  async rotateSigningKey(): Promise<string> {
    const signing = newSigningKey();
    await this.insertKey('signing', signing.kid, JSON.stringify(signing));
    return signing.kid;
  }

  /**
   * The active keys of `purpose`; none yet, then the first one. It goes in under a fixed row id, so when
   * processes start together exactly one insert wins and every process reads that key: had each kept its own,
   * a process would refuse the tokens (and cookies) the others sign until its next start.
   */
  private async activeOrFirstKeys(purpose: 'signing' | 'cookie', generate: () => string): Promise<string[]> {
    const keys = await this.activeKeys(purpose);
    if (keys.length > 0) return keys;
    try {
      await this.insertKey(purpose, `first-${purpose}`, generate());
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    return this.activeKeys(purpose);
  }

  /** Retires every signing key but the newest created before `beforeMs` (run once old tokens have expired). */
  async retireSigningKeysBefore(beforeMs: number): Promise<number> {
    const newest = await this.db.first<{ id: string }>("SELECT id FROM oauth_keys WHERE purpose = 'signing' AND retired_at_ms IS NULL ORDER BY created_at_ms DESC LIMIT 1");
    const { changes } = await this.db.run("UPDATE oauth_keys SET retired_at_ms = ? WHERE purpose = 'signing' AND retired_at_ms IS NULL AND created_at_ms < ? AND id <> ?", [
      this.clock.now(),
      beforeMs,
      newest?.id ?? '',
    ]);
    return changes;
  }

  private async activeKeys(purpose: 'signing' | 'cookie'): Promise<string[]> {
    const rows = await this.db.all<{ material: string }>('SELECT material FROM oauth_keys WHERE purpose = ? AND retired_at_ms IS NULL ORDER BY created_at_ms DESC, id', [purpose]);
    return rows.map((row) => row.material);
  }

  private async insertKey(purpose: 'signing' | 'cookie', id: string, material: string): Promise<void> {
    await this.db.run('INSERT INTO oauth_keys (id, purpose, material, created_at_ms, retired_at_ms) VALUES (?, ?, ?, ?, NULL)', [id, purpose, material, this.clock.now()]);
  }
}

function newSigningKey(): SigningJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  // RFC 7638-style thumbprint as kid: stable for the key, unrelated to time.
  const kid = createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n })).digest('base64url').slice(0, 32);
  return { ...(jwk as Omit<SigningJwk, 'kid' | 'alg' | 'use' | 'kty'>), kty: 'RSA', kid, alg: 'RS256', use: 'sig' };
}

export function publicJwk(key: SigningJwk): PublicSigningJwk {
  return { kty: key.kty, kid: key.kid, alg: key.alg, use: key.use, n: key.n, e: key.e };
}
