/** `get_generation_request`: `GET /api/v1/requests/{id}` as a tool — the request object, for the key that created it. */
import * as z from 'zod/v4';
import { ApiError } from '../../../kernel/errors/index.js';
import { PollHints, toRequestDetail } from '../../../kernel/lifecycle/index.js';
import { defineTool } from '../mcp-tool.js';
import { asAccount } from './account-access.js';
import { requestDetailShape } from './generation-shapes.js';

export const getRequestTool = defineTool({
  name: 'get_generation_request',
  title: 'Get a generation request',
  description:
    'Returns a generation request created with this API key: its status (queued, processing, succeeded, failed), the credits charged (and `credits`: what was charged and refunded, with the ledger entries), and once succeeded its `output` with the hosted media URLs. ' +
    'Poll it after create_generation_request, waiting about `poll_after_ms` between calls, until the status is succeeded or failed; a failed request has an `errorMessage` and was refunded. ' +
    'Requests of other API keys are not visible (MG_REQUEST_NOT_FOUND).',
  access: 'account',
  scope: 'requests:read',
  inputSchema: {
    id: z.string().min(1).max(64).describe('The request id create_generation_request returned, e.g. "req_..."'),
  },
  outputSchema: requestDetailShape,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, context) =>
    asAccount(context, { scope: 'requests:read', rateBucket: 'read' }, async ({ apiKeyId }) => {
      const record = await context.gateway.requests.viewForKey(args.id, apiKeyId);
      if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${args.id} for this API key`);
      const { gateway } = context;
      return toRequestDetail(record, await gateway.ledgers.of(record), gateway.settings.server.public_url, new PollHints(gateway.registry, gateway.plugins).forRecord(record));
    }),
});
