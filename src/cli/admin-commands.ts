/** Operator commands that touch the store directly: migrate, keys, credits, users. */
import { parseScopes } from '../kernel/accounts/index.js';
import { ApiKeys, UserInputError, Users } from '../kernel/accounts/index.js';
import type { Settings } from '../kernel/config/index.js';
import { AccountStore, migrateToLatest, newId, openDatabase } from '../kernel/store/index.js';
import { OAuthKeys } from '../kernel/oauth/index.js';
import { runUserCommand, type UserCommandOptions } from './user-commands.js';

type Options = UserCommandOptions & { name?: string; scopes?: string; credits?: string; email?: string; plan?: string; key?: string; amount?: string; json?: boolean };

export async function runAdminCommand(settings: Settings, positionals: string[], options: Options): Promise<number> {
  const database = openDatabase(settings.database.url, { poolMax: 2 });
  const clock = { now: () => Date.now() };
  try {
    const applied = await migrateToLatest(database);
    const accounts = new AccountStore(database.sql);
    const apiKeys = new ApiKeys(accounts, clock);
    const [command, sub, argument] = positionals;
    const out = (text: string) => process.stdout.write(`${text}\n`);

    if (command === 'migrate') {
      out(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
      return 0;
    }
    if (command === 'keys' && sub === 'create') {
      if (!options.name) return fail('keys create needs --name');
      const scopes = parseScopes(options.scopes ?? 'requests:read,requests:write');
      const credits = integerOption(options.credits ?? '0', '--credits');
      const accountId = newId('acct', clock.now());
      await accounts.createAccount({ id: accountId, email: options.email ?? `${options.name.replace(/[^A-Za-z0-9._-]/g, "-")}@mediagate.local`, plan: options.plan ?? 'standard', creditsBalance: credits, createdAtMs: clock.now() });
      const { plaintext, record } = await apiKeys.create(accountId, options.name, scopes);
      if (options.json) out(JSON.stringify({ key: plaintext, id: record.id, accountId, scopes, credits }));
      else out(`API key (shown once): ${plaintext}\nid: ${record.id}  account: ${accountId}  scopes: ${scopes.join(',')}  credits: ${credits}`);
      return 0;
    }
    if (command === 'keys' && sub === 'list') {
      const keys = await accounts.listApiKeys();
      if (options.json) out(JSON.stringify(keys));
      else for (const key of keys) out(`${key.id}  ${key.keyPrefix}…  ${key.name}  ${key.scopes.join(',')}  ${key.revokedAtMs ? 'revoked' : 'active'}`);
      return 0;
    }
    if (command === 'keys' && sub === 'revoke') {
      if (!argument) return fail('keys revoke needs a key id or prefix');
      const revoked = await accounts.revokeApiKey(argument, clock.now());
      if (revoked === 0) return fail(`no active key ${argument}`);
      out(`revoked ${revoked} key(s)`);
      return 0;
    }
    if (command === 'credits' && sub === 'grant') {
      if (!options.key || !options.amount) return fail('credits grant needs --key and --amount');
      const amount = integerOption(options.amount, '--amount');
      const key = (await accounts.listApiKeys()).find((item) => item.id === options.key || item.keyPrefix === options.key);
      if (!key) return fail(`no key ${options.key}`);
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
    if (command === 'users') {
      try {
        return await runUserCommand(sub, options, { users: new Users(database.sql, clock), accounts }, out);
      } catch (error) {
        if (error instanceof UserInputError) return fail(error.message);
        throw error;
      }
    }
    return fail(`unknown command: ${positionals.join(' ')}`);
  } finally {
    await database.close();
  }
}

function integerOption(value: string, name: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a non-negative integer`);
  return Number(value);
}

function fail(message: string): number {
  process.stderr.write(`mediagate: ${message}\n`);
  return 2;
}
