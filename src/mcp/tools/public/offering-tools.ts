/**
 * `list_offerings` and `get_checkout_link`, from the offering records (knowledge files and `mcp.offerings`).
 * Links are first-party only, checked at start; no tool opens a payment session or grants credits.
 */
import * as z from 'zod/v4';
import type { KnowledgeRecord } from '../../knowledge/knowledge-registry.js';
import { defineTool, ToolError } from '../mcp-tool.js';
import { readOnly } from './public-tool-basics.js';

const offeringShape = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.string().nullable(),
  credits: z.number().int().nullable(),
  checkout_available: z.boolean(),
  url: z.string(),
});

export const listOfferingsTool = defineTool({
  name: 'list_offerings',
  title: 'List offerings',
  description: 'Lists what the operator of this gateway offers (plans, credit packs, self-hosting), with price and credits where set and whether a checkout link exists. Read-only: it never reads an account or starts a payment.',
  access: 'public',
  inputSchema: {},
  outputSchema: { offerings: z.array(offeringShape) },
  annotations: readOnly,
  async handler(_args, { knowledge }) {
    return { offerings: knowledge.all('offering').map(toOffering) };
  },
});

export const getCheckoutLinkTool = defineTool({
  name: 'get_checkout_link',
  title: 'Checkout link of an offering',
  description: 'Returns the first-party checkout page of one offering (from list_offerings) for the user to open themselves. It does not create a payment session, reserve anything or grant credits.',
  access: 'public',
  inputSchema: { offering_id: z.string().min(1).describe('An `id` from list_offerings.') },
  outputSchema: { offering_id: z.string(), title: z.string(), checkout_url: z.string(), note: z.string() },
  annotations: readOnly,
  async handler({ offering_id: offeringId }, { knowledge }) {
    const record = knowledge.get(`offering:${offeringId}`);
    if (!record) throw new ToolError('MG_NOT_FOUND', `no offering ${offeringId}: ask list_offerings for the ids`, { errors: [{ path: '/offering_id', message: 'no such offering' }] });
    const checkoutUrl = record.metadata.checkout_url;
    if (typeof checkoutUrl !== 'string') throw new ToolError('MG_NOT_FOUND', `offering ${offeringId} has no checkout: ${record.url} says how to get it`, { errors: [{ path: '/offering_id', message: 'has no checkout link' }] });
    return { offering_id: offeringId, title: record.title, checkout_url: checkoutUrl, note: 'Open this page yourself to buy; nothing has been reserved or charged.' };
  },
});

function toOffering(record: KnowledgeRecord): z.infer<typeof offeringShape> {
  const { offering_id: id, price, credits, checkout_url: checkoutUrl, description } = record.metadata as { offering_id: string; price: string | null; credits: number | null; checkout_url: string | null; description: string };
  return { id, title: record.title, description, price, credits, checkout_available: checkoutUrl !== null, url: record.url };
}
