/**
 * The world tools: list, get, create, update and delete worlds (the spec's universes), which hold characters,
 * objects, locations and zones. Roles come from the workspace that holds the world.
 */
import * as z from 'zod/v4';
import { workspaceLimits } from '../../../kernel/workspaces/index.js';
import { defineTool } from '../mcp-tool.js';
import { asWorkspaceUser } from './workspace-access.js';
import { readableWorkspacesJson } from './workspace-lists.js';
import {
  createAnnotations, deleteAnnotations, deleteInput, deleteOutcomeShape, deleteScope, draftsSpendNothing, objectId, pageShape, pagingInput, readAnnotations,
  updateAnnotations, workspaceShape, worldShape, worldSummaryShape,
} from './workspace-shapes.js';
import { deleteOutcomeJson, pageJson, worldJson, worldSummaryJson } from './workspace-views.js';

const worldName = z.string().min(1).max(workspaceLimits.titleLength);
const worldDescription = z.string().max(workspaceLimits.descriptionLength).describe('What the world is: setting, era, tone.');

export const listWorldsTool = defineTool({
  name: 'list_worlds',
  title: 'List worlds',
  description:
    'Lists the worlds (universes) of the workspaces you can read, newest first, one page at a time: pass `nextCursor` back as `cursor` for the next page. ' +
    'Filter with `workspace_id`. A world holds characters, objects, locations and zones: list_world_assets lists them. ' +
    '`workspaces` lists the workspaces you can read with your role in each. Reads only; needs workspace:read.',
  access: 'workspace',
  scope: 'workspace:read',
  inputSchema: { ...pagingInput, workspace_id: objectId('Only worlds of this workspace.').optional() },
  outputSchema: {
    ...pageShape(worldSummaryShape, 'Worlds'),
    workspaces: z.array(workspaceShape).describe('The workspaces you can read, with your role in each.'),
  },
  annotations: readAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:read', async (actor) => {
      const page = await context.gateway.workspaces.worlds.list(actor, { cursor: args.cursor, limit: args.limit, workspaceId: args.workspace_id });
      return { ...pageJson(page, worldSummaryJson), workspaces: await readableWorkspacesJson(context, actor) };
    }),
});

export const getWorldTool = defineTool({
  name: 'get_world',
  title: 'Get a world',
  description:
    'Returns one world: name, description, your role, how many assets of each kind it holds, and the generated artifacts linked to the world itself ' +
    '(generations that named only its universe_id). A world you cannot see answers MG_WORKSPACE_OBJECT_NOT_FOUND. Reads only; needs workspace:read.',
  access: 'workspace',
  scope: 'workspace:read',
  inputSchema: { id: objectId('The world id (world_...).') },
  outputSchema: worldShape,
  annotations: readAnnotations,
  handler: (args, context) => asWorkspaceUser(context, 'workspace:read', async (actor) => worldJson(await context.gateway.workspaces.worlds.get(actor, args.id))),
});

export const createWorldTool = defineTool({
  name: 'create_world',
  title: 'Create a world (draft)',
  description:
    'Creates a world (universe) to hold characters, objects, locations and zones (add them with create_world_asset), in your account\'s default workspace ' +
    `unless workspace_id names another where you are an editor or owner. ${draftsSpendNothing} Needs workspace:write. Each call creates a new world.`,
  access: 'workspace',
  scope: 'workspace:write',
  inputSchema: {
    name: worldName.describe('The world\'s name (also what a delete must repeat).'),
    description: worldDescription.optional(),
    workspace_id: objectId('The workspace to create it in; default: your account\'s default workspace.').optional(),
  },
  outputSchema: worldShape,
  annotations: createAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:write', async (actor) =>
      worldJson(await context.gateway.workspaces.worlds.create(actor, { workspaceId: args.workspace_id, name: args.name, description: args.description })),
    ),
});

export const updateWorldTool = defineTool({
  name: 'update_world',
  title: 'Update a world (draft)',
  description:
    `Renames a world or changes its description; fields you omit stay as they are. Editors and owners only (a viewer gets MG_WORKSPACE_ROLE). ${draftsSpendNothing} ` +
    'Needs workspace:write.',
  access: 'workspace',
  scope: 'workspace:write',
  inputSchema: { id: objectId('The world to change.'), name: worldName.optional().describe('A new name.'), description: worldDescription.optional() },
  outputSchema: worldShape,
  annotations: updateAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:write', async (actor) =>
      worldJson(await context.gateway.workspaces.worlds.update(actor, args.id, { name: args.name, description: args.description })),
    ),
});

export const deleteWorldTool = defineTool({
  name: 'delete_world',
  title: 'Delete a world and its assets (preview first)',
  description:
    'Deletes a world together with its assets, in two calls. 1) Call with just `id` (dry_run defaults to true): a preview that changes nothing and returns the impact ' +
    '(assets by kind, linked generated artifacts), whether your role allows it (`can_delete`: only workspace owners delete worlds) and `confirm_with`. ' +
    '2) Show the impact to the user and, only once they agree, call again with dry_run: false, confirmed: true and title set to the world\'s exact name (confirm_with). ' +
    'Anything else is refused with MG_DELETE_NOT_CONFIRMED naming the missing or wrong field, and nothing is deleted. ' +
    'The delete is soft: an owner can restore the world in the console until `restorable_until` (7 days), then it is purged. ' +
    'The preview needs workspace:read; the delete needs workspace:write.',
  access: 'workspace',
  scope: deleteScope,
  inputSchema: deleteInput('world', 'name'),
  outputSchema: deleteOutcomeShape,
  annotations: deleteAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, deleteScope(args), async (actor) =>
      deleteOutcomeJson(await context.gateway.workspaces.worlds.delete(actor, args.id, { dryRun: args.dry_run, confirmed: args.confirmed, title: args.title })),
    ),
});
