/**
 * First embedded start: a development account and key so the README's curl quick-start works as written.
 * The key is printed once and written to `<data_dir>/dev-api-key` (mode 0600). Never with a production
 * database: there accounts are created by an operator (`mediagate keys create`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId, type AccountStore } from '../store/index.js';
import type { ApiKeys } from './api-keys.js';

export interface DevAccountResult {
  created: boolean;
  keyFile: string;
  plaintext?: string;
}

export async function ensureDevAccount(options: {
  accounts: AccountStore;
  apiKeys: ApiKeys;
  dataDir: string;
  account: { email: string; plan: string; credits: number };
  clock: { now(): number };
}): Promise<DevAccountResult> {
  const keyFile = join(options.dataDir, 'dev-api-key');
  // Any account means this is not a first start (or an operator set accounts up): create nothing.
  if ((await options.accounts.countAccounts()) > 0) return { created: false, keyFile };
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
  return { created: true, keyFile, plaintext };
}
