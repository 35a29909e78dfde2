/**
 * `create_generation_request`: `POST /api/v1/requests` as a tool, billable only when confirmed under a cap.
 * Without `confirmed: true` and `max_credits` it answers a priced preview and writes nothing, so a model cannot
 * spend a user's credits by calling a tool once; with them it creates exactly as REST does (same validation,
 * pricing, one-transaction debit, idempotency), after refusing a cost above the cap.
 */
import * as z from 'zod/v4';
import { ApiError } from '../../../kernel/errors/index.js';
import type { PreparedRequest } from '../../../kernel/manifests/index.js';
import { defineTool, type McpCallContext } from '../mcp-tool.js';
import { asAccount, type AccountCaller } from './account-access.js';
import { generationEnvelopeShape, requestUrlsShape } from './generation-shapes.js';

const inputSchema = {
  ...generationEnvelopeShape,
  webhook_url: z.string().optional().describe('Optional http(s) URL that receives one POST when the request succeeds or fails.'),
  idempotency_key: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('Optional key (1-255 characters) that makes a retried confirmed call return the first request instead of creating and charging a second one.'),
  confirmed: z.boolean().optional().describe('true only after the user accepted the cost shown by a preview; without it nothing is created.'),
  max_credits: z.number().int().min(0).optional().describe('The most credits the user agreed to spend (the preview\'s cost); a request costing more is refused. Required with confirmed: true.'),
};

const outputSchema = {
  status: z.enum(['preview', 'queued']).describe('preview: nothing was created or charged; queued: the request was created and charged.'),
  operation: z.string(),
  credits: z.number().describe('The exact cost in credits (charged when queued).'),
  // Preview only.
  model: z.string().optional(),
  input: z.record(z.string(), z.unknown()).optional().describe('Preview: the input as it would be stored, with defaults applied.'),
  balance: z.number().optional().describe('Preview: the credits the account has now.'),
  balance_after: z.number().optional().describe('Preview: the balance after this request; negative when the account cannot afford it.'),
  affordable: z.boolean().optional(),
  confirm_with: z.object({ confirmed: z.literal(true), max_credits: z.number() }).optional().describe('Preview: the arguments to add to this call to create the request.'),
  // Created only.
  id: z.string().optional().describe('Created: the request id to pass to get_generation_request.'),
  poll_after_ms: z.number().optional().describe('Created: wait about this long before the first get_generation_request.'),
  urls: requestUrlsShape.optional(),
  replayed: z.boolean().optional().describe('Created: true when idempotency_key matched an earlier call, which is returned instead of a new request.'),
  deprecation_notice: z.string().optional().describe('Created: set when the operation or model is deprecated; tell the user.'),
};

type CreateArgs = z.infer<z.ZodObject<typeof inputSchema>>;
type CreateResult = z.infer<z.ZodObject<typeof outputSchema>>;

export const createRequestTool = defineTool({
  name: 'create_generation_request',
  title: 'Create a generation request (billable, needs confirmation)',
  description:
    'Starts a media generation (image, video, narration, music, lip sync, ...) and charges its credits. Two steps: ' +
    '1) call it without `confirmed` to get a preview with the exact cost in credits, the validated input and the balance after; nothing is created or charged. ' +
    '2) show the cost to the user and, only once they agree, call it again with the same arguments plus `confirmed: true` and `max_credits` set to the cost they accepted (the preview\'s `confirm_with`). ' +
    'A cost above `max_credits` is refused with MG_CREDIT_CAP_EXCEEDED and nothing is charged. ' +
    'The created request is asynchronous: poll get_generation_request with its `id` until the status is succeeded (output holds the media URLs) or failed (refunded). ' +
    'Pass an `idempotency_key` so a retried confirmed call cannot create and charge twice. Invalid input fails with MG_VALIDATION_FAILED and `errors` naming each field. ' +
    'There is no cancellation tool.',
  access: 'account',
  scope: 'requests:write',
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // The scope is checked for the preview too: a key that cannot create should learn so before the user agrees to a cost.
  handler: (args, context) =>
    asAccount(context, { scope: 'requests:write', rateBucket: 'create' }, async (caller) => {
      const envelope = { operation: args.operation, input: args.input, ...(args.webhook_url === undefined ? {} : { webhook_url: args.webhook_url }) };
      // Priced here for the preview and the cap; `create` validates the same envelope again (compiled schemas, cheap).
      const { prepared } = context.gateway.creator.prepare(envelope);
      if (args.confirmed !== true || args.max_credits === undefined) return preview(context, caller, prepared);
      if (prepared.credits > args.max_credits) {
        throw new ApiError('MG_CREDIT_CAP_EXCEEDED', `this request costs ${prepared.credits} credits, above max_credits ${args.max_credits}; nothing was charged`);
      }
      return create(context, caller, envelope, prepared, args);
    }),
});

async function preview(context: McpCallContext, caller: AccountCaller, prepared: PreparedRequest): Promise<CreateResult> {
  const balance = (await context.gateway.accounts.getAccount(caller.accountId))?.creditsBalance ?? 0;
  return {
    status: 'preview',
    operation: prepared.operation.name,
    model: prepared.model,
    input: prepared.input,
    credits: prepared.credits,
    balance,
    balance_after: balance - prepared.credits,
    affordable: balance >= prepared.credits,
    confirm_with: { confirmed: true, max_credits: prepared.credits },
  };
}

async function create(context: McpCallContext, caller: AccountCaller, envelope: Record<string, unknown>, prepared: PreparedRequest, args: CreateArgs): Promise<CreateResult> {
  // The envelope is exactly a REST create body, so an idempotency key's body hash means the same thing through both doors.
  const outcome = await context.gateway.creator.create(caller, envelope, args.idempotency_key);
  const notice = outcome.headers['Mediagate-Deprecation-Notice'];
  return {
    ...outcome.body,
    credits: prepared.credits,
    replayed: outcome.replayed,
    ...(notice ? { deprecation_notice: notice } : {}),
  };
}
