/**
 * The world asset tools: list, get, create, update and delete the characters, objects, locations and zones of a
 * world. Generated artifacts reach an asset only through create_generation_request naming its id; these tools
 * never generate anything.
 */
import * as z from 'zod/v4';
import { assetKinds, workspaceLimits } from '../../../kernel/workspaces/index.js';
import { defineTool } from '../mcp-tool.js';
import { asWorkspaceUser } from './workspace-access.js';
import {
  assetShape, assetSummaryShape, createAnnotations, deleteAnnotations, deleteInput, deleteOutcomeShape, deleteScope, draftsSpendNothing, idString, objectId, pageShape,
  pagingInput, readAnnotations, updateAnnotations,
} from './workspace-shapes.js';
import { assetJson, assetSummaryJson, deleteOutcomeJson, pageJson } from './workspace-views.js';

const assetName = z.string().min(1).max(workspaceLimits.titleLength);
const assetDescription = z.string().max(workspaceLimits.descriptionLength).describe('Who or what it is: appearance, role, mood.');
const referenceMedia = z
  .array(z.string().min(1).max(workspaceLimits.urlLength))
  .max(workspaceLimits.referenceMedia)
  .describe(`Up to ${workspaceLimits.referenceMedia} http(s) URLs of reference images or videos; stored as links, not copied.`);

export const listAssetsTool = defineTool({
  name: 'list_world_assets',
  title: 'List the assets of a world',
  description:
    'Lists the characters, objects, locations and zones of one world, newest first, one page at a time: pass `nextCursor` back as `cursor` for the next page. ' +
    'Filter with `kind`. Items are summaries: get_world_asset adds the generated artifacts linked to one. Reads only; needs workspace:read.',
  access: 'workspace',
  scope: 'workspace:read',
  inputSchema: {
    world_id: objectId('The world whose assets to list (list_worlds gives the ids).'),
    kind: z.enum(assetKinds).optional().describe('Only assets of this kind.'),
    ...pagingInput,
  },
  outputSchema: pageShape(assetSummaryShape, 'Assets'),
  annotations: readAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:read', async (actor) =>
      pageJson(await context.gateway.workspaces.worlds.listAssets(actor, { worldId: args.world_id, kind: args.kind, cursor: args.cursor, limit: args.limit }), assetSummaryJson),
    ),
});

export const getAssetTool = defineTool({
  name: 'get_world_asset',
  title: 'Get a world asset',
  description:
    'Returns one asset (character, object, location or zone): name, description, reference media, for a zone its location_id, your role, and the generated artifacts ' +
    'linked to it with their hosted URLs (model_url of a 3D model, splat_url of a 3D location, ...). To generate one for it, call create_generation_request with ' +
    'three_d.model.generate and character_id or object_id (and universe_id), or three_d.location.generate with location_id or zone_id: the result is linked here ' +
    'once the request succeeds. An asset you cannot see answers MG_WORKSPACE_OBJECT_NOT_FOUND. Reads only; needs workspace:read.',
  access: 'workspace',
  scope: 'workspace:read',
  inputSchema: { id: objectId('The asset id (asset_...).') },
  outputSchema: assetShape,
  annotations: readAnnotations,
  handler: (args, context) => asWorkspaceUser(context, 'workspace:read', async (actor) => assetJson(await context.gateway.workspaces.worlds.getAsset(actor, args.id))),
});

export const createAssetTool = defineTool({
  name: 'create_world_asset',
  title: 'Add an asset to a world (draft)',
  description:
    'Adds a character, object, location or zone to a world: a name, a description, reference media URLs and, for a zone, the location_id of a location of the same world. ' +
    `${draftsSpendNothing} Its id is what create_generation_request takes as character_id, object_id, location_id or zone_id to link a generated 3D artifact to it. ` +
    'Editors and owners of the world\'s workspace only (a viewer gets MG_WORKSPACE_ROLE). Needs workspace:write. Each call creates a new asset.',
  access: 'workspace',
  scope: 'workspace:write',
  inputSchema: {
    world_id: objectId('The world to add it to.'),
    kind: z.enum(assetKinds).describe('character, object, location, or zone (a part of a location).'),
    name: assetName.describe('The asset\'s name (also what a delete must repeat).'),
    description: assetDescription.optional(),
    reference_media: referenceMedia.optional(),
    location_id: objectId('Zones only: the location (of the same world) the zone is part of.').optional(),
  },
  outputSchema: assetShape,
  annotations: createAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:write', async (actor) =>
      assetJson(
        await context.gateway.workspaces.worlds.createAsset(actor, {
          worldId: args.world_id,
          kind: args.kind,
          name: args.name,
          description: args.description,
          referenceMedia: args.reference_media,
          locationId: args.location_id,
        }),
      ),
    ),
});

export const updateAssetTool = defineTool({
  name: 'update_world_asset',
  title: 'Update a world asset (draft)',
  description:
    'Changes an asset\'s name, description, reference media (the list you send replaces the old one) or, for a zone, its location_id (null detaches it); ' +
    `fields you omit stay as they are. Its kind and world never change. Editors and owners only (a viewer gets MG_WORKSPACE_ROLE). ${draftsSpendNothing} ` +
    'Needs workspace:write.',
  access: 'workspace',
  scope: 'workspace:write',
  inputSchema: {
    id: objectId('The asset to change.'),
    name: assetName.optional().describe('A new name.'),
    description: assetDescription.optional(),
    reference_media: referenceMedia.optional(),
    location_id: idString.nullable().optional().describe('Zones only: the location of the same world the zone is part of; null detaches it.'),
  },
  outputSchema: assetShape,
  annotations: updateAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:write', async (actor) =>
      assetJson(
        await context.gateway.workspaces.worlds.updateAsset(actor, args.id, {
          name: args.name,
          description: args.description,
          referenceMedia: args.reference_media,
          locationId: args.location_id,
        }),
      ),
    ),
});

export const deleteAssetTool = defineTool({
  name: 'delete_world_asset',
  title: 'Delete a world asset (preview first)',
  description:
    'Deletes an asset in two calls. 1) Call with just `id` (dry_run defaults to true): a preview that changes nothing and returns the impact ' +
    '(linked generated artifacts; for a location, the zones that would lose it, which are not deleted), whether your role allows it (`can_delete`: editors and owners) ' +
    'and `confirm_with`. 2) Show the impact to the user and, only once they agree, call again with dry_run: false, confirmed: true and title set to the asset\'s exact name ' +
    '(confirm_with). Anything else is refused with MG_DELETE_NOT_CONFIRMED naming the missing or wrong field, and nothing is deleted. ' +
    'The delete is soft: an owner can restore the asset in the console until `restorable_until` (7 days), then it is purged. ' +
    'The preview needs workspace:read; the delete needs workspace:write.',
  access: 'workspace',
  scope: deleteScope,
  inputSchema: deleteInput('asset', 'name'),
  outputSchema: deleteOutcomeShape,
  annotations: deleteAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, deleteScope(args), async (actor) =>
      deleteOutcomeJson(await context.gateway.workspaces.worlds.deleteAsset(actor, args.id, { dryRun: args.dry_run, confirmed: args.confirmed, title: args.title })),
    ),
});
