/**
 * Zod shapes the 16 workspace tools share: the records of workspace-views.ts as output schemas (so the SDK checks
 * every answer against what the tools promise), the paging and delete-confirmation inputs, the delete tools'
 * argument-dependent scope, and the annotations of reads, creates, updates and deletes.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import {
  assetKinds, defaultPageSize, maxPageSize, projectStatuses, workspaceLimits, workspaceRoles, type LinkTargetType, type ObjectType,
} from '../../../kernel/workspaces/index.js';

const linkTargetTypes = ['asset', 'world', 'project'] as const satisfies readonly LinkTargetType[];
const objectTypes = ['project', 'world', 'asset'] as const satisfies readonly ObjectType[];

const isoTime = z.string().describe('ISO 8601');
export const roleShape = z.enum(workspaceRoles);
const countsByKind = z.partialRecord(z.enum(assetKinds), z.number().int());

/** The id of one workspace object, as the tools return them (`proj_...`, `world_...`, `asset_...`, `wsp_...`). */
export const idString = z.string().min(1).max(128);

export function objectId(description: string) {
  return idString.describe(description);
}

export const workspaceShape = z.object({
  id: z.string(),
  name: z.string(),
  is_default: z.boolean().describe("The account's default workspace: where creates go without workspace_id."),
  role: roleShape.describe('Your role in it: owner (everything), editor (create, edit, delete assets), viewer (read).'),
  created_at: isoTime,
});

export const linkShape = z.object({
  request_id: z.string().describe('The generation request that produced it (get_generation_request shows it to the client that created it).'),
  operation: z.string(),
  target_type: z.enum(linkTargetTypes),
  target_id: z.string(),
  artifacts: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .describe("The request's hosted media: each *_url and *_urls field of its output, e.g. model_url, splat_url. URLs need network access and may expire with request retention."),
  linked_at: isoTime,
});

export const stepShape = z.object({
  id: z.string(),
  operation: z.string(),
  input: z.record(z.string(), z.unknown()).describe('The draft input of the operation; it may be incomplete until the step is run.'),
  notes: z.string(),
});

export const projectSummaryShape = {
  id: z.string(),
  workspace_id: z.string(),
  world_id: z.string().nullable().describe('The world this project builds, or null.'),
  title: z.string(),
  description: z.string(),
  status: z.enum(projectStatuses),
  step_count: z.number().int(),
  created_at: isoTime,
  updated_at: isoTime,
};

export const projectShape = {
  ...projectSummaryShape,
  role: roleShape.describe('Your role on this project (a share can raise your workspace role for this project).'),
  steps: z.array(stepShape).describe('The plan, in order.'),
  shared_with: z.array(z.object({ email: z.string(), role: roleShape })).describe('Everyone with a project role, the creator (owner) included.'),
  requests: z.array(linkShape).describe('Generation requests that ran for this project (created with its project_id) and succeeded.'),
};

export const worldSummaryShape = {
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: isoTime,
  updated_at: isoTime,
};

export const worldShape = {
  ...worldSummaryShape,
  role: roleShape.describe('Your role in the workspace that holds the world.'),
  asset_counts: countsByKind.describe('How many assets of each kind the world holds.'),
  links: z.array(linkShape).describe('Artifacts linked to the world itself: generations that named only its universe_id.'),
};

export const assetSummaryShape = {
  id: z.string(),
  world_id: z.string(),
  workspace_id: z.string(),
  kind: z.enum(assetKinds),
  name: z.string(),
  description: z.string(),
  location_id: z.string().nullable().describe('For a zone: the location it is part of; else null.'),
  reference_media: z.array(z.string()).describe('Reference image or video URLs given by users (links, not copies).'),
  created_at: isoTime,
  updated_at: isoTime,
};

export const assetShape = {
  ...assetSummaryShape,
  role: roleShape.describe('Your role in the workspace that holds the asset.'),
  links: z.array(linkShape).describe('Generated artifacts linked to this asset, oldest first.'),
};

export const deleteOutcomeShape = {
  dry_run: z.boolean().describe('true: a preview, nothing changed.'),
  deleted: z.boolean(),
  can_delete: z.boolean().describe('Whether your role allows running this delete.'),
  reason: z.string().optional().describe('Why you cannot delete it, when can_delete is false.'),
  impact: z
    .object({
      type: z.enum(objectTypes),
      id: z.string(),
      title: z.string().describe('The exact title (project) or name (world, asset) a confirmed delete must repeat.'),
      steps: z.number().int().optional().describe('Project: its steps.'),
      assets: countsByKind.optional().describe('World: its assets by kind, removed with it.'),
      links: z.number().int().describe('Linked generated artifacts that would no longer show here (the requests themselves stay).'),
      shared_with: z.array(z.object({ email: z.string(), role: roleShape })).optional().describe('Project: who loses access.'),
      zones_detached: z.number().int().optional().describe('Location: zones that lose their location (they are not deleted).'),
    })
    .describe('What the delete removes.'),
  confirm_with: z
    .object({ dry_run: z.literal(false), confirmed: z.literal(true), title: z.string() })
    .describe('The arguments to add (with the same id) to run the delete, once the user agreed.'),
  restorable_until: isoTime.optional().describe('After a delete: an owner can restore it in the console until then; afterwards it is purged.'),
};

export function pageShape<Item extends z.ZodRawShape>(item: Item, what: string) {
  return {
    items: z.array(z.object(item)).describe(`${what}, newest first.`),
    nextCursor: z.string().optional().describe('Present when there are more: pass it as `cursor` to get the next page.'),
  };
}

export const pagingInput = {
  cursor: z.string().min(1).max(256).optional().describe('The nextCursor of the previous page; omit for the first page.'),
  limit: z.number().int().min(1).max(maxPageSize).default(defaultPageSize).describe(`Items per page, 1-${maxPageSize} (default ${defaultPageSize}).`),
};

/** What a delete tool takes: the object and the three confirmations, each optional so a bare id is a preview. */
export function deleteInput(label: 'project' | 'world' | 'asset', titleField: 'title' | 'name') {
  return {
    id: objectId(`The ${label} to delete.`),
    dry_run: z.boolean().default(true).describe('true (the default): only preview the impact. false: delete, which also needs confirmed and title.'),
    confirmed: z.boolean().optional().describe('true only after the user agreed to this delete, having seen the preview.'),
    title: z
      .string()
      .max(workspaceLimits.titleLength)
      .optional()
      .describe(`The ${label}'s exact ${titleField} (case and spaces as in the preview's confirm_with), required to delete.`),
  };
}

/** A preview changes nothing and needs only `workspace:read`; a run needs `workspace:write` (the HTTP layer asks for it). */
export function deleteScope(args: { dry_run?: unknown }): 'workspace:read' | 'workspace:write' {
  return args.dry_run === false ? 'workspace:write' : 'workspace:read';
}

export const readAnnotations: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
export const createAnnotations: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
// Destructive in the MCP sense ("false: only additive updates"): an update overwrites what it changes, with no undo.
export const updateAnnotations: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
// Repeating a confirmed delete removes nothing more (the object is gone: the second call is refused as not found).
export const deleteAnnotations: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** The sentence every draft-writing tool ends with, so a model never mistakes a draft for a generation. */
export const draftsSpendNothing = 'It never starts a generation and never spends credits.';
