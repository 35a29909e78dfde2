/**
 * Brute-force throttling of console sign-in: failed attempts are counted in a sliding 15-minute window, per
 * e-mail (5) and per client IP (20). Past either limit the form is refused with 429 and Retry-After, without
 * even checking the password, until enough failures have left the window. A successful sign-in clears the
 * e-mail's count. Counting in the store (not in memory) makes the limit hold across API processes.
 *
 * The e-mail limit lets a stranger lock a known address out for 15 minutes; that is the usual price of
 * stopping password guessing against one account from many addresses (OWASP authentication cheat sheet).
 */
import type { SqlDatabase } from '../store/index.js';

export const loginThrottleLimits = { windowMs: 15 * 60_000, perEmail: 5, perIp: 20 } as const;

type Scope = 'email' | 'ip';

export class LoginThrottle {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: { now(): number },
    private readonly limits: { windowMs: number; perEmail: number; perIp: number } = loginThrottleLimits,
  ) {}

  /** Milliseconds until a sign-in for `email` from `ip` may be tried again; 0 when it may be tried now. */
  async retryAfterMs(email: string, ip: string): Promise<number> {
    const [byEmail, byIp] = await Promise.all([this.waitFor('email', email, this.limits.perEmail), this.waitFor('ip', ip, this.limits.perIp)]);
    return Math.max(byEmail, byIp);
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      for (const [scope, subject] of [['email', email], ['ip', ip]] as const) {
        await tx.run('INSERT INTO login_attempts (scope, subject, attempted_at_ms) VALUES (?, ?, ?)', [scope, subject, now]);
      }
      // Failures that have left every window count for nothing: dropped here, so the table stays small.
      await tx.run('DELETE FROM login_attempts WHERE attempted_at_ms < ?', [now - this.limits.windowMs]);
    });
  }

  async clearEmail(email: string): Promise<void> {
    await this.db.run("DELETE FROM login_attempts WHERE scope = 'email' AND subject = ?", [email]);
  }

  /** The limit-th most recent failure in the window decides: once it leaves the window, one more try is allowed. */
  private async waitFor(scope: Scope, subject: string, limit: number): Promise<number> {
    const now = this.clock.now();
    const rows = await this.db.all<{ attempted_at_ms: number }>(
      `SELECT attempted_at_ms FROM login_attempts WHERE scope = ? AND subject = ? AND attempted_at_ms > ? ORDER BY attempted_at_ms DESC LIMIT ${Number(limit)}`,
      [scope, subject, now - this.limits.windowMs],
    );
    if (rows.length < limit) return 0;
    return Number(rows[limit - 1]!.attempted_at_ms) + this.limits.windowMs - now;
  }
}
