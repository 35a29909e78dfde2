/**
 * Console passwords, hashed with scrypt (memory-hard, in node:crypto, so no native add-on to build).
 *
 * Parameters: N = 2^15, r = 8, p = 1 — 32 MiB and roughly 50-100 ms per hash on one core, the interactive-login
 * setting RFC 7914 §2 suggests and OWASP's password storage cheat sheet lists as its scrypt minimum. Salt: 16
 * random bytes; hash: 32 bytes. Stored as a versioned PHC-style string, so the cost can be raised later and old
 * hashes still verify with the parameters written in them:
 *   $scrypt$v=1$N=32768,r=8,p=1$<salt, base64 no padding>$<hash, base64 no padding>
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const passwordParameters = { N: 2 ** 15, r: 8, p: 1, saltBytes: 16, hashBytes: 32 } as const;

/** NIST SP 800-63B §5.1.1.2: at least 8 characters; the upper bound only keeps a request from hashing megabytes. */
export const passwordLength = { min: 8, max: 1024 } as const;

const phcPattern = /^\$scrypt\$v=1\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, length: number, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs about 128 * N * r bytes; Node refuses anything at or above 32 MiB unless maxmem says otherwise.
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));
}

const base64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, saltBytes, hashBytes } = passwordParameters;
  const salt = randomBytes(saltBytes);
  const hash = await derive(password, salt, hashBytes, { N, r, p });
  return `$scrypt$v=1$N=${N},r=${r},p=${p}$${base64(salt)}$${base64(hash)}`;
}

/** True when `password` matches `stored`; a malformed stored string never matches (and never throws). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = phcPattern.exec(stored);
  if (!parsed) return false;
  const [, N, r, p, salt, expectedText] = parsed;
  const expected = Buffer.from(expectedText!, 'base64');
  const actual = await derive(password, Buffer.from(salt!, 'base64'), expected.length, { N: Number(N), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real verification and fails: used for an unknown e-mail, so the response time
 * does not tell an attacker which addresses have accounts.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
  return false;
}

/** A password for a person to type once and change: 24 base64url characters (144 random bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Why a chosen password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < passwordLength.min) return `the password must have at least ${passwordLength.min} characters`;
  if (password.length > passwordLength.max) return `the password must have at most ${passwordLength.max} characters`;
  return undefined;
}
