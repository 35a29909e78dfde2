/** `x-api-key` -> the key's account and scopes (401/403 from the catalogue). */
import type { Context, Next } from 'koa';
import { requireScope, type ApiKeys, type AuthenticatedKey } from '../../kernel/accounts/index.js';
import type { Scope } from '../../kernel/store/index.js';

export function authenticate(apiKeys: ApiKeys, scope?: Scope) {
  return async function checkApiKey(ctx: Context, next: Next): Promise<void> {
    const key = await apiKeys.authenticate(ctx.get('x-api-key') || undefined);
    if (scope) requireScope(key, scope);
    ctx.state.apiKey = key;
    await next();
  };
}

export function apiKeyOf(ctx: Context): AuthenticatedKey {
  return ctx.state.apiKey as AuthenticatedKey;
}
