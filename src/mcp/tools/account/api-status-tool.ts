/** `api_status`: `GET /api/v1/status` as a tool — checks the credential and shows the account's credits. */
import * as z from 'zod/v4';
import { ApiError } from '../../../kernel/errors/index.js';
import { defineTool } from '../mcp-tool.js';
import { asAccount } from './account-access.js';

export const apiStatusTool = defineTool({
  name: 'api_status',
  title: 'Check the API key and credits',
  description:
    'Checks that the API key this connection uses is valid and returns the account\'s remaining credits, its plan and the key\'s scopes. ' +
    'Call it first when the user asks what they can afford, or when another account tool fails with MG_UNAUTHENTICATED or MG_FORBIDDEN_SCOPE. ' +
    'It creates nothing and spends nothing.',
  access: 'account',
  inputSchema: {},
  outputSchema: {
    ok: z.literal(true),
    status: z.literal('ok'),
    message: z.string(),
    creditsRemaining: z.number(),
    credits: z.object({ remaining: z.number() }),
    account: z.object({ email: z.string(), plan: z.string() }),
    apiKey: z.object({ id: z.string(), name: z.string().optional(), scopes: z.array(z.string()) }),
    serverTime: z.string().describe('ISO 8601'),
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  // Like REST, any valid key may call it whatever its scopes: it is how a client checks a key.
  handler: (_args, context) =>
    asAccount(context, {}, async ({ accountId, apiKeyId, principal }) => {
      const account = await context.gateway.accounts.getAccount(accountId);
      if (!account) throw new ApiError('MG_UNAUTHENTICATED', 'the account of this API key no longer exists');
      return {
        ok: true as const,
        status: 'ok' as const,
        message: principal.name ? `API key "${principal.name}" is valid.` : 'The API key is valid.',
        creditsRemaining: account.creditsBalance,
        credits: { remaining: account.creditsBalance },
        account: { email: account.email, plan: account.plan },
        apiKey: { id: apiKeyId, ...(principal.name ? { name: principal.name } : {}), scopes: [...principal.scopes] },
        serverTime: new Date(context.gateway.clock.now()).toISOString(),
      };
    }),
});
