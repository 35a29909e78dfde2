/** `estimate_generation_cost`: `POST /api/v1/estimates` as a tool — validates and prices like create, writes nothing. */
import * as z from 'zod/v4';
import { defineTool } from '../mcp-tool.js';
import { asAccount } from './account-access.js';
import { generationEnvelopeShape } from './generation-shapes.js';

export const estimateCostTool = defineTool({
  name: 'estimate_generation_cost',
  title: 'Estimate the credit cost of a generation',
  description:
    'Validates an operation and its input exactly as create_generation_request would and returns the exact credit cost, the model it routes to, ' +
    'the credits remaining and whether the account can afford it. Spends nothing and creates nothing. ' +
    'Invalid input fails with MG_VALIDATION_FAILED and `errors` naming each field (e.g. "/input/prompt"): fix those fields and call again.',
  access: 'account',
  inputSchema: generationEnvelopeShape,
  outputSchema: {
    operation: z.string(),
    model: z.string(),
    billableCredits: z.number().describe('What create_generation_request would charge for this input.'),
    creditsRemaining: z.number(),
    affordable: z.boolean(),
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  // Like REST estimates: any valid key may ask, counted in the create bucket (an estimate costs a create's validation).
  handler: (args, context) =>
    asAccount(context, { rateBucket: 'create' }, async ({ accountId }) => {
      const { gateway } = context;
      const { prepared } = gateway.creator.prepare({ operation: args.operation, input: args.input });
      const remaining = (await gateway.accounts.getAccount(accountId))?.creditsBalance ?? 0;
      return { operation: prepared.operation.name, model: prepared.model, billableCredits: prepared.credits, creditsRemaining: remaining, affordable: remaining >= prepared.credits };
    }),
});
