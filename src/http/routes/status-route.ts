/** `GET /api/v1/status`: validates the key and shows its account; creates nothing, spends nothing. */
import type { Router } from '@koa/router';
import { ApiError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import { apiKeyOf, authenticate } from '../middleware/authenticate.js';

export function addStatusRoute(router: Router, gateway: Gateway): void {
  // Any valid key may call it, whatever its scopes: it is how a client checks a key.
  router.get('/api/v1/status', authenticate(gateway.apiKeys), async (ctx) => {
    const key = apiKeyOf(ctx);
    const account = await gateway.accounts.getAccount(key.accountId);
    if (!account) throw new ApiError('MG_UNAUTHENTICATED', 'the account of this API key no longer exists');
    ctx.body = {
      ok: true,
      status: 'ok',
      message: `API key "${key.name}" is valid.`,
      creditsRemaining: account.creditsBalance,
      credits: { remaining: account.creditsBalance },
      account: { email: account.email, plan: account.plan },
      apiKey: { name: key.name, scopes: key.scopes },
      serverTime: new Date(gateway.clock.now()).toISOString(),
    };
  });
}
