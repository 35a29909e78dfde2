/**
 * First embedded start: a development account and key so the README's curl quick-start works as written.
 * The key is printed once and written to `<data_dir>/dev-api-key` (mode 0600). The account's owner can sign
 * in to the console as `dev_account.email` with a generated password written to `<data_dir>/dev-console-password`
 * (mode 0600; only its location is printed). Never with a production database: there accounts and users are
 * created by an operator (`mediagate keys create`, `mediagate users create`).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId, type AccountStore } from '../store/index.js';
import { hashApiKey, type ApiKeys } from './api-keys.js';
import { generatePassword } from './passwords.js';
import type { Users } from './users.js';

export interface DevAccountResult {
  created: boolean;
  keyFile: string;
  plaintext?: string;
  /** Set when this start created the console owner: who it is and where the password is. */
  owner?: { email: string; passwordFile: string };
}

export async function ensureDevAccount(options: {
  accounts: AccountStore;
  apiKeys: ApiKeys;
  users: Users;
  dataDir: string;
  account: { email: string; plan: string; credits: number };
  clock: { now(): number };
}): Promise<DevAccountResult> {
  const keyFile = join(options.dataDir, 'dev-api-key');
  // Any account means this is not a first start (or an operator set accounts up): no new account.
  if ((await options.accounts.countAccounts()) > 0) {
    // A data folder from before the console existed: give its development account the owner it lacks.
    const accountId = await devAccountOfKeyFile(options.accounts, keyFile);
    const owner = accountId && (await options.users.countUsers()) === 0 ? await createDevOwner(options, accountId) : undefined;
    return { created: false, keyFile, owner };
  }
  const accountId = newId('acct', options.clock.now());
  await options.accounts.createAccount({
    id: accountId,
    email: options.account.email,
    plan: options.account.plan,
    creditsBalance: options.account.credits,
    createdAtMs: options.clock.now(),
  });
  const { plaintext } = await options.apiKeys.create(accountId, 'development', ['requests:read', 'requests:write']);
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(keyFile, `${plaintext}\n`, { mode: 0o600 });
  const owner = await createDevOwner(options, accountId);
  return { created: true, keyFile, plaintext, owner };
}

async function createDevOwner(options: { users: Users; dataDir: string; account: { email: string } }, accountId: string): Promise<{ email: string; passwordFile: string }> {
  const password = generatePassword();
  const user = await options.users.create({ email: options.account.email, password, accountId, role: 'owner' });
  const passwordFile = join(options.dataDir, 'dev-console-password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  return { email: user.email, passwordFile };
}

async function devAccountOfKeyFile(accounts: AccountStore, keyFile: string): Promise<string | undefined> {
  const plaintext = await readFile(keyFile, 'utf8').then((text) => text.trim(), () => undefined);
  return plaintext ? (await accounts.findApiKeyByHash(hashApiKey(plaintext)))?.accountId : undefined;
}
