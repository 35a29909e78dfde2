/**
 * `mediagate users create|invite`: the people who sign in to the console.
 *   users create --email E --account A [--role owner] [--password-file F]
 *       A user with the password in F (its first line), or a generated one printed once.
 *   users invite --email E --account A --role R
 *       Makes E a member of A with role R; a new user gets a one-time password printed once (give it to them
 *       over a channel you trust), an existing user keeps theirs.
 * A is an account id, or the id or prefix of one of its API keys.
 */
import { readFile } from 'node:fs/promises';
import { checkRole, generatePassword, UserInputError, type Users } from '../kernel/accounts/index.js';
import type { AccountStore } from '../kernel/store/index.js';
import { resolveAccount } from './account-lookup.js';

export interface UserCommandOptions {
  email?: string;
  account?: string;
  role?: string;
  'password-file'?: string;
  json?: boolean;
}

export async function runUserCommand(sub: string | undefined, options: UserCommandOptions, stores: { users: Users; accounts: AccountStore }, out: (text: string) => void): Promise<number> {
  if (sub !== 'create' && sub !== 'invite') throw new UserInputError('command', `unknown users command ${sub ?? ''}; use users create or users invite`);
  if (!options.email) throw new UserInputError('email', `users ${sub} needs --email`);
  if (!options.account) throw new UserInputError('account', `users ${sub} needs --account <account id or key prefix>`);
  if (sub === 'invite' && !options.role) throw new UserInputError('role', 'users invite needs --role (owner, admin, developer or viewer)');
  const role = checkRole(options.role ?? 'owner');
  const accountId = await resolveAccount(stores.accounts, options.account);
  let user;
  let password: string | undefined;
  if (sub === 'create') {
    password = options['password-file'] ? undefined : generatePassword();
    const chosen = password ?? firstLine(await readFile(options['password-file']!, 'utf8'));
    user = await stores.users.create({ email: options.email, password: chosen, accountId, role });
  } else {
    ({ user, password } = await stores.users.invite({ email: options.email, accountId, role }));
  }
  if (options.json) out(JSON.stringify({ userId: user.id, email: user.email, accountId, role, ...(password ? { password } : {}) }));
  else {
    out(`user ${user.email} (${user.id}) is ${role} of account ${accountId}`);
    if (password) out(`password (shown once; sign in at /console/login): ${password}`);
  }
  return 0;
}

function firstLine(text: string): string {
  return text.split(/\r?\n/)[0] ?? '';
}
