import { UserInputError } from '../kernel/accounts/index.js';
import type { AccountStore } from '../kernel/store/index.js';

/** `--account`: an account id, or the id or prefix of one of the account's API keys (what an operator has at hand). */
export async function resolveAccount(accounts: AccountStore, idOrKey: string): Promise<string> {
  if (await accounts.getAccount(idOrKey)) return idOrKey;
  const key = (await accounts.listApiKeys()).find((each) => each.id === idOrKey || each.keyPrefix === idOrKey);
  if (!key) throw new UserInputError('account', `no account or API key ${idOrKey}`);
  return key.accountId;
}
