/**
 * Server-side console sessions. The cookie carries 256 random bits; the store keeps only their SHA-256, so
 * a leaked copy of the table signs nobody in. Each session has its own CSRF token (a hidden `_csrf` field).
 *
 * Lifetimes (OWASP session management cheat sheet ranges for a low-to-medium risk application): a session
 * ends after 12 hours without use or 7 days after sign-in, whichever comes first. Use is recorded at most once
 * a minute so that reading pages is not a write each.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SqlDatabase } from '../store/index.js';

export const sessionLifetime = { idleMs: 12 * 3600_000, absoluteMs: 7 * 24 * 3600_000, touchEveryMs: 60_000 } as const;

export interface ConsoleSession {
  /** SHA-256 (hex) of the cookie value. */
  id: string;
  userId: string;
  /** The account the user acts in; null until they are a member of one. */
  accountId: string | null;
  csrfToken: string;
  createdAtMs: number;
  lastSeenAtMs: number;
  expiresAtMs: number;
}

export function sessionIdOf(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('hex');
}

export function newRandomToken(): string {
  return randomBytes(32).toString('base64url');
}

function toSession(row: Record<string, unknown>): ConsoleSession {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    accountId: row.account_id === null ? null : String(row.account_id),
    csrfToken: String(row.csrf_token),
    createdAtMs: Number(row.created_at_ms),
    lastSeenAtMs: Number(row.last_seen_at_ms),
    expiresAtMs: Number(row.expires_at_ms),
  };
}

export class ConsoleSessions {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: { now(): number },
  ) {}

  /** A new session (a new id on every sign-in: a session id planted before sign-in is worth nothing after). */
  async start(userId: string, accountId: string | null): Promise<{ cookieValue: string; session: ConsoleSession }> {
    const cookieValue = newRandomToken();
    const now = this.clock.now();
    const session: ConsoleSession = { id: sessionIdOf(cookieValue), userId, accountId, csrfToken: newRandomToken(), createdAtMs: now, lastSeenAtMs: now, expiresAtMs: now + sessionLifetime.absoluteMs };
    await this.db.run('INSERT INTO console_sessions (id, user_id, account_id, csrf_token, created_at_ms, last_seen_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      session.id,
      userId,
      accountId,
      session.csrfToken,
      now,
      now,
      session.expiresAtMs,
    ]);
    return { cookieValue, session };
  }

  /** The live session a cookie names, its use recorded; undefined (and the row removed) once it has expired. */
  async resolve(cookieValue: string): Promise<ConsoleSession | undefined> {
    const id = sessionIdOf(cookieValue);
    const row = await this.db.first('SELECT * FROM console_sessions WHERE id = ?', [id]);
    if (!row) return undefined;
    const session = toSession(row);
    const now = this.clock.now();
    if (now >= session.expiresAtMs || now - session.lastSeenAtMs >= sessionLifetime.idleMs) {
      await this.db.run('DELETE FROM console_sessions WHERE id = ?', [id]);
      return undefined;
    }
    if (now - session.lastSeenAtMs >= sessionLifetime.touchEveryMs) {
      await this.db.run('UPDATE console_sessions SET last_seen_at_ms = ? WHERE id = ?', [now, id]);
      session.lastSeenAtMs = now;
    }
    return session;
  }

  async end(sessionId: string): Promise<void> {
    await this.db.run('DELETE FROM console_sessions WHERE id = ?', [sessionId]);
  }

  /** Ends every session of the user but `keep` (after a password change: other browsers must sign in again). */
  async endOthers(userId: string, keep: string): Promise<number> {
    const { changes } = await this.db.run('DELETE FROM console_sessions WHERE user_id = ? AND id <> ?', [userId, keep]);
    return changes;
  }

  async switchAccount(sessionId: string, accountId: string): Promise<void> {
    await this.db.run('UPDATE console_sessions SET account_id = ? WHERE id = ?', [accountId, sessionId]);
  }

  /** Removes sessions past their absolute or idle end; returns how many. */
  async purgeExpired(): Promise<number> {
    const now = this.clock.now();
    const { changes } = await this.db.run('DELETE FROM console_sessions WHERE expires_at_ms <= ? OR last_seen_at_ms <= ?', [now, now - sessionLifetime.idleMs]);
    return changes;
  }
}
