/**
 * Users (people who sign in to the console) and their memberships of accounts. E-mail addresses are
 * compared lowercased: the store keeps them that way, so one unique index serves SQLite and MySQL alike.
 */
import { isDuplicateKeyError, newId, type SqlDatabase } from '../store/index.js';
import { roles, type Member, type Role } from './members.js';
import { generatePassword, hashPassword, passwordProblem, verifyPassword } from './passwords.js';

export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string;
  createdAtMs: number;
  disabled: boolean;
}

/** A mistake in what an operator or a form asked for (an existing e-mail, a bad role): shown to them as is. */
export class UserInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'UserInputError';
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const emailPattern = /^[^\s@]+@[^\s@]+$/;

export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!emailPattern.test(normalized) || normalized.length > 254) throw new UserInputError('email', `${JSON.stringify(email)} is not an e-mail address`);
  return normalized;
}

export function checkRole(role: string): Role {
  if (!(roles as readonly string[]).includes(role)) throw new UserInputError('role', `unknown role ${role}; roles: ${roles.join(', ')}`);
  return role as Role;
}

function toUser(row: Record<string, unknown>): UserRecord {
  return { id: String(row.id), email: String(row.email), passwordHash: String(row.password_hash), createdAtMs: Number(row.created_at_ms), disabled: Boolean(Number(row.disabled)) };
}

function toMember(row: Record<string, unknown>): Member {
  return { userId: String(row.user_id), email: String(row.email), accountId: String(row.account_id), role: row.role as Role };
}

export class Users {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: { now(): number },
  ) {}

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db.first('SELECT * FROM users WHERE email = ?', [normalizeEmail(email)]);
    return row ? toUser(row) : undefined;
  }

  async get(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.first('SELECT * FROM users WHERE id = ?', [id]);
    return row ? toUser(row) : undefined;
  }

  /** Creates a user with `password` and makes them a member of `accountId`; refuses an e-mail already taken. */
  async create(options: { email: string; password: string; accountId: string; role: Role }): Promise<UserRecord> {
    const email = checkEmail(options.email);
    const problem = passwordProblem(options.password);
    if (problem) throw new UserInputError('password', problem);
    const user: UserRecord = { id: newId('user', this.clock.now()), email, passwordHash: await hashPassword(options.password), createdAtMs: this.clock.now(), disabled: false };
    try {
      await this.db.transaction(async (tx) => {
        await tx.run('INSERT INTO users (id, email, password_hash, created_at_ms, disabled) VALUES (?, ?, ?, ?, ?)', [user.id, user.email, user.passwordHash, user.createdAtMs, 0]);
        await tx.run('INSERT INTO memberships (user_id, account_id, role, created_at_ms) VALUES (?, ?, ?, ?)', [user.id, options.accountId, options.role, user.createdAtMs]);
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new UserInputError('email', `a user with the e-mail ${email} already exists`);
      throw error;
    }
    return user;
  }

  /**
   * Makes `email` a member of `accountId` with `role`. A new user gets a generated one-time password, returned
   * here and never again; an existing user keeps theirs (and their other memberships).
   */
  async invite(options: { email: string; accountId: string; role: Role }): Promise<{ user: UserRecord; password?: string }> {
    const existing = await this.findByEmail(checkEmail(options.email));
    if (!existing) {
      const password = generatePassword();
      return { user: await this.create({ ...options, password }), password };
    }
    try {
      await this.db.run('INSERT INTO memberships (user_id, account_id, role, created_at_ms) VALUES (?, ?, ?, ?)', [existing.id, options.accountId, options.role, this.clock.now()]);
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new UserInputError('email', `${existing.email} is already a member of ${options.accountId}`);
      throw error;
    }
    return { user: existing };
  }

  /**
   * Replaces the user's password after checking the current one (a stolen session alone cannot lock the owner
   * out). Throws UserInputError naming `current_password` or `new_password`.
   */
  async changePassword(userId: string, current: string, next: string): Promise<void> {
    const user = await this.get(userId);
    if (!user || !(await verifyPassword(current, user.passwordHash))) throw new UserInputError('current_password', 'the current password is not right');
    const problem = passwordProblem(next);
    if (problem) throw new UserInputError('new_password', problem);
    if (next === current) throw new UserInputError('new_password', 'choose a password different from the current one');
    await this.db.run('UPDATE users SET password_hash = ? WHERE id = ?', [await hashPassword(next), userId]);
  }

  /** Every account the user belongs to, oldest membership first (the default account after sign-in). */
  async memberships(userId: string): Promise<Member[]> {
    const rows = await this.db.all(
      'SELECT m.user_id, u.email, m.account_id, m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.user_id = ? ORDER BY m.created_at_ms, m.account_id',
      [userId],
    );
    return rows.map(toMember);
  }

  async countUsers(): Promise<number> {
    const row = await this.db.first<{ n: number }>('SELECT COUNT(*) AS n FROM users');
    return Number(row?.n ?? 0);
  }
}
