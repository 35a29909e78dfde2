/**
 * Zod shapes the account tools share: the generation envelope (operation + input, validated by the kernel
 * against the operation's manifest, so failures name the field exactly as REST does) and the request object of
 * `GET /api/v1/requests/{id}` (kernel/lifecycle/request-view.ts).
 */
import * as z from 'zod/v4';
import { requestStatuses } from '../../../kernel/store/index.js';

/**
 * `input` is a free object here on purpose: each operation's manifest validates it (defaults, conditional rules,
 * every failing field named as `/input/...`), which a static schema per tool could only duplicate.
 */
export const generationEnvelopeShape = {
  operation: z.string().min(1).describe('The operation to run, e.g. "image.generate"; list_capabilities and get_api_operation list them with their inputs.'),
  input: z.record(z.string(), z.unknown()).describe("The operation's input fields, exactly as the REST API takes them in `input`."),
};

export const requestUrlsShape = z.object({ get: z.string().describe('Where the request is polled (REST); pass the `id` to get_generation_request instead.') });

/** The request object, field for field as `GET /api/v1/requests/{id}` returns it. */
export const requestObjectShape = {
  id: z.string(),
  operation: z.string(),
  status: z.enum(requestStatuses).describe('queued -> processing -> succeeded | failed.'),
  billableCredits: z.number().describe('Credits charged; refunded in full when the request fails.'),
  createdAtMs: z.number(),
  startedAtMs: z.number().nullable(),
  completedAtMs: z.number().nullable(),
  errorMessage: z.string().nullable().describe('Why the request failed (status failed), else null.'),
  output: z.record(z.string(), z.unknown()).describe('The result once succeeded (hosted media URLs and metadata), else {}.'),
  input: z.record(z.string(), z.unknown()).nullable().describe('The input as validated and stored; null once retention removed it.'),
  dataRemovedAtMs: z.number().nullable(),
  urls: requestUrlsShape,
  poll_after_ms: z.number().int().optional().describe('While queued or processing: wait about this long before the next get_generation_request.'),
};

/** `get_generation_request`'s answer: the request object plus the credits it moved, as the REST detail has them. */
export const requestDetailShape = {
  ...requestObjectShape,
  credits: z
    .object({
      charged: z.number().describe('Credits taken for the request: the debit at create, plus a settlement upwards.'),
      refunded: z.number().describe('Credits given back: the refund of a failed request, or a settlement downwards.'),
      net: z.number().describe('charged - refunded: billableCredits once succeeded, 0 once a failed request was refunded.'),
      entries: z.array(
        z.object({
          kind: z.enum(['debit', 'refund', 'adjust']),
          amount: z.number().describe('Change to the balance; a debit is negative.'),
          note: z.string().nullable(),
          atMs: z.number(),
        }),
      ),
    })
    .describe("The request's ledger entries, oldest first, and their sums, to reconcile the balance."),
};
