/** Operator commands that touch the store directly: migrate, keys, credits, users, the OAuth signing key. */
import { ApiKeys, parseScopes, UserInputError, Users } from '../kernel/accounts/index.js';
import type { Settings } from '../kernel/config/index.js';
import { OAuthKeys } from '../kernel/oauth/index.js';
import { AccountStore, allScopes, migrateToLatest, newId, openDatabase, type AccountRecord, type ApiKeyRecord, type Scope } from '../kernel/store/index.js';
import { resolveAccount } from './account-lookup.js';
import { didYouMean, type Invocation } from './command-line.js';
import { runUserCommand, type UserCommandOptions } from './user-commands.js';

type Options = UserCommandOptions & { name?: string; scopes?: string; credits?: string; email?: string; plan?: string; key?: string; amount?: string; json?: boolean };

interface Context {
  accounts: AccountStore;
  apiKeys: ApiKeys;
  clock: { now(): number };
  out: (text: string) => void;
}

export async function runAdminCommand(settings: Settings, invocation: Extract<Invocation, { kind: 'run' }>): Promise<number> {
  const database = openDatabase(settings.database.url, { poolMax: 2 });
  const clock = { now: () => Date.now() };
  try {
    const applied = await migrateToLatest(database);
    const accounts = new AccountStore(database.sql);
    const context: Context = { accounts, apiKeys: new ApiKeys(accounts, clock), clock, out: (text) => process.stdout.write(`${text}\n`) };
    const options = invocation.values as Options;
    const [command, sub] = invocation.command.words;
    const { out } = context;

    if (command === 'migrate') {
      out(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
      return 0;
    }
    if (command === 'keys' && sub === 'create') return await createKey(context, options);
    if (command === 'keys' && sub === 'list') return await listKeys(context, options);
    if (command === 'keys' && sub === 'revoke') {
      const revoked = await accounts.revokeApiKey(invocation.argument!, clock.now());
      if (revoked === 0) throw new UserInputError('key', `no active key ${invocation.argument}`);
      out(`revoked ${revoked} key(s)`);
      return 0;
    }
    if (command === 'credits' && sub === 'grant') {
      const amount = integerOption(options.amount!, '--amount');
      const key = (await accounts.listApiKeys()).find((item) => item.id === options.key || item.keyPrefix === options.key);
      if (!key) throw new UserInputError('key', `no key ${options.key}`);
      await accounts.grantCredits(key.accountId, amount, 'granted by operator', clock.now());
      const account = await accounts.getAccount(key.accountId);
      out(options.json ? JSON.stringify({ accountId: key.accountId, creditsRemaining: account?.creditsBalance }) : `granted ${amount}; balance ${account?.creditsBalance}`);
      return 0;
    }
    if (command === 'oauth' && sub === 'rotate-signing-key') {
      // The new key signs once each API process restarts; older keys keep verifying the tokens they signed.
      const kid = await new OAuthKeys(database.sql, clock).rotateSigningKey();
      out(`new signing key ${kid}: restart the API processes to sign with it`);
      return 0;
    }
    if (command === 'users') return await runUserCommand(sub, options, { users: new Users(database.sql, clock), accounts }, out);
    throw new Error(`mediagate ${invocation.command.words.join(' ')} is in the command table but has no handler`);
  } finally {
    await database.close();
  }
}

/**
 * `keys create`: a new account with its first key, or (`--account`) one more key for an existing account. The
 * new-account options would silently mean nothing for an existing one, so they are refused with it.
 */
async function createKey({ accounts, apiKeys, clock, out }: Context, options: Options): Promise<number> {
  const scopes = scopesOption(options.scopes ?? 'requests:read,requests:write');
  const name = options.name!;
  let accountId: string;
  if (options.account !== undefined) {
    const newAccountOnly = (['credits', 'email', 'plan'] as const).filter((option) => options[option] !== undefined);
    if (newAccountOnly.length > 0) {
      const listed = newAccountOnly.map((option) => `--${option}`).join(', ');
      throw new UserInputError('account', `${listed} describe a new account and cannot be used with --account (add credits with "mediagate credits grant")`);
    }
    accountId = await resolveAccount(accounts, options.account);
  } else {
    const credits = integerOption(options.credits ?? '0', '--credits');
    accountId = newId('acct', clock.now());
    await accounts.createAccount({ id: accountId, email: options.email ?? `${name.replace(/[^A-Za-z0-9._-]/g, '-')}@mediagate.local`, plan: options.plan ?? 'standard', creditsBalance: credits, createdAtMs: clock.now() });
  }
  const { plaintext, record } = await apiKeys.create(accountId, name, scopes);
  const credits = (await accounts.getAccount(accountId))!.creditsBalance;
  if (options.json) out(JSON.stringify({ key: plaintext, id: record.id, accountId, scopes, credits }));
  else out(`API key (shown once): ${plaintext}\nid: ${record.id}  account: ${accountId}  scopes: ${scopes.join(',')}  credits: ${credits}`);
  return 0;
}

/** Keys grouped by account, each account with its balance: who can spend what. */
async function listKeys({ accounts, out }: Context, options: Options): Promise<number> {
  const keys = await accounts.listApiKeys();
  const owners = new Map<string, AccountRecord>();
  for (const accountId of new Set(keys.map((key) => key.accountId))) {
    const account = await accounts.getAccount(accountId);
    if (account) owners.set(accountId, account);
  }
  if (options.json) {
    out(JSON.stringify(keys.map((key) => ({ ...key, account: accountSummary(owners.get(key.accountId)) }))));
    return 0;
  }
  const byAccount = new Map<string, ApiKeyRecord[]>();
  for (const key of keys) byAccount.set(key.accountId, [...(byAccount.get(key.accountId) ?? []), key]);
  for (const [accountId, owned] of byAccount) {
    const account = owners.get(accountId);
    out(`${accountId}  ${account?.email ?? '(account missing)'}  plan ${account?.plan ?? '-'}  balance ${account?.creditsBalance ?? '-'} credits`);
    for (const key of owned) out(`  ${key.id}  ${key.keyPrefix}…  ${key.name}  ${key.scopes.join(',')}  ${key.revokedAtMs ? 'revoked' : 'active'}`);
  }
  return 0;
}

function accountSummary(account: AccountRecord | undefined) {
  return account ? { email: account.email, plan: account.plan, creditsBalance: account.creditsBalance } : null;
}

/** `--scopes`: every name must be a scope; a typo is named with its likely fix rather than creating a weaker key. */
function scopesOption(text: string): Scope[] {
  const names = text.split(',').map((scope) => scope.trim()).filter(Boolean);
  if (names.length === 0) throw new UserInputError('scopes', `--scopes names no scope; the scopes are ${allScopes.join(', ')}`);
  const unknown = names.find((name) => !(allScopes as string[]).includes(name));
  if (unknown !== undefined) throw new UserInputError('scopes', `unknown scope ${unknown}${didYouMean(unknown, allScopes)}; the scopes are ${allScopes.join(', ')}`);
  return parseScopes(text);
}

function integerOption(value: string, name: string): number {
  if (!/^\d+$/.test(value)) throw new UserInputError(name, `${name} must be a non-negative integer, not ${value}`);
  return Number(value);
}
