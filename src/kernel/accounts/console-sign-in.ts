/**
 * Checking an e-mail and password for the console. Unknown e-mail, wrong password and disabled user look the
 * same to the caller (one outcome, one message) and take the same time (a dummy scrypt for unknown e-mails).
 */
import { LoginThrottle } from './login-throttle.js';
import { verifyDummyPassword, verifyPassword } from './passwords.js';
import { normalizeEmail, type UserRecord, type Users } from './users.js';

export type SignInResult = { outcome: 'signed_in'; user: UserRecord } | { outcome: 'invalid' } | { outcome: 'throttled'; retryAfterSeconds: number };

export class ConsoleSignIn {
  constructor(
    private readonly users: Users,
    private readonly throttle: LoginThrottle,
  ) {}

  async attempt(email: string, password: string, clientIp: string): Promise<SignInResult> {
    const normalized = normalizeEmail(email);
    const waitMs = await this.throttle.retryAfterMs(normalized, clientIp);
    if (waitMs > 0) return { outcome: 'throttled', retryAfterSeconds: Math.ceil(waitMs / 1000) };
    const user = await this.users.findByEmail(normalized);
    const matches = user ? await verifyPassword(password, user.passwordHash) : await verifyDummyPassword(password);
    if (!user || !matches || user.disabled) {
      await this.throttle.recordFailure(normalized, clientIp);
      return { outcome: 'invalid' };
    }
    await this.throttle.clearEmail(normalized);
    return { outcome: 'signed_in', user };
  }
}
