/**
 * The creator-flow project tools: list, get, create, update and delete. A project is a plan (ordered steps of
 * operation + draft input + notes); these tools only write the plan. Running a step is create_generation_request's
 * job, with its own price preview and confirmation.
 */
import * as z from 'zod/v4';
import type { JsonObject } from '../../../kernel/plugin-sdk/index.js';
import { projectStatuses, workspaceLimits, workspaceRoles, type StepDraft } from '../../../kernel/workspaces/index.js';
import { defineTool } from '../mcp-tool.js';
import { asWorkspaceUser } from './workspace-access.js';
import { readableWorkspacesJson } from './workspace-lists.js';
import {
  createAnnotations, deleteAnnotations, deleteInput, deleteOutcomeShape, deleteScope, draftsSpendNothing, idString, objectId, pageShape, pagingInput, projectShape,
  projectSummaryShape, readAnnotations, updateAnnotations, workspaceShape,
} from './workspace-shapes.js';
import { deleteOutcomeJson, pageJson, projectJson, projectSummaryJson } from './workspace-views.js';

const stepInput = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional()
    .describe('Keep a step\'s id (from get_creator_flow_project) when sending it again; omit for a new step.'),
  operation: z.string().min(1).max(128).describe('The operation the step will run, e.g. "three_d.model.generate" (list_capabilities lists them).'),
  input: z.record(z.string(), z.unknown()).optional().describe('The draft input for that operation, as create_generation_request takes it; may be incomplete.'),
  notes: z.string().max(workspaceLimits.notesLength).optional().describe('Free notes for the people working on the plan.'),
});

const planFields = {
  description: z.string().max(workspaceLimits.descriptionLength).optional().describe('What the project is for.'),
  status: z.enum(projectStatuses).optional().describe('draft (the default for a new project), active, completed or archived: a label for people, it runs nothing.'),
  steps: z.array(stepInput).max(workspaceLimits.steps).optional().describe(`The plan, in order (at most ${workspaceLimits.steps} steps).`),
};

// Arguments arrive as parsed JSON-RPC, so a step's input holds JSON values only; zod just does not say so.
const stepDrafts = (steps: z.infer<typeof stepInput>[] | undefined): StepDraft[] | undefined =>
  steps?.map((step) => ({ id: step.id, operation: step.operation, input: step.input as JsonObject | undefined, notes: step.notes }));

export const listProjectsTool = defineTool({
  name: 'list_creator_flow_projects',
  title: 'List creator-flow projects',
  description:
    'Lists the creator-flow projects you can see (those of your workspaces and those shared with you), newest first, one page at a time: ' +
    'pass `nextCursor` back as `cursor` for the next page. Filter with `workspace_id` or `world_id`. Items are summaries (a step count, not the steps): ' +
    'call get_creator_flow_project for the plan, the shares and the generation requests of one. `workspaces` lists the workspaces you can read with your role in each. ' +
    'Reads only; needs the workspace:read scope.',
  access: 'workspace',
  scope: 'workspace:read',
  inputSchema: {
    ...pagingInput,
    workspace_id: objectId('Only projects of this workspace.').optional(),
    world_id: objectId('Only projects that build this world.').optional(),
  },
  outputSchema: {
    ...pageShape(projectSummaryShape, 'Projects'),
    workspaces: z.array(workspaceShape).describe('The workspaces you can read, with your role in each.'),
  },
  annotations: readAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:read', async (actor) => {
      const page = await context.gateway.workspaces.projects.list(actor, { cursor: args.cursor, limit: args.limit, workspaceId: args.workspace_id, worldId: args.world_id });
      return { ...pageJson(page, projectSummaryJson), workspaces: await readableWorkspacesJson(context, actor) };
    }),
});

export const getProjectTool = defineTool({
  name: 'get_creator_flow_project',
  title: 'Get a creator-flow project',
  description:
    'Returns one creator-flow project: title, description, status, the world it builds, the ordered plan of steps (each an operation with a draft input and notes), ' +
    'who it is shared with, your role on it, and the generation requests that ran for it with their hosted media URLs. ' +
    'Read it before update_creator_flow_project (to keep the step ids) and before running a step with create_generation_request. ' +
    'A project you cannot see answers MG_WORKSPACE_OBJECT_NOT_FOUND. Reads only; needs workspace:read.',
  access: 'workspace',
  scope: 'workspace:read',
  inputSchema: { id: objectId('The project id (proj_...).') },
  outputSchema: projectShape,
  annotations: readAnnotations,
  handler: (args, context) => asWorkspaceUser(context, 'workspace:read', async (actor) => projectJson(await context.gateway.workspaces.projects.get(actor, args.id))),
});

export const createProjectTool = defineTool({
  name: 'create_creator_flow_project',
  title: 'Create a creator-flow project (draft)',
  description:
    'Creates a creator-flow project: a plan of generation steps (operation + draft input + notes) with a title, an optional description and status (default draft), ' +
    'and optionally the world_id of the world it builds. ' +
    `A project is a draft. ${draftsSpendNothing} To run a step, pass its operation and input to create_generation_request, which prices it and asks for the user's confirmation; ` +
    'add the project\'s id as project_id where the operation accepts it (three_d.location.generate) so the result is recorded on the project. ' +
    'Step operations must be operations this gateway serves; their inputs may be incomplete. ' +
    'The project goes into your account\'s default workspace unless workspace_id names another where you are an editor or owner; you become its owner. ' +
    'Needs workspace:write. Each call creates a new project.',
  access: 'workspace',
  scope: 'workspace:write',
  inputSchema: {
    title: z.string().min(1).max(workspaceLimits.titleLength).describe('The project\'s title (also what a delete must repeat).'),
    ...planFields,
    world_id: objectId('The world (in the same workspace) the project builds; its assets go into the export.').optional(),
    workspace_id: objectId('The workspace to create it in; default: your account\'s default workspace.').optional(),
  },
  outputSchema: projectShape,
  annotations: createAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:write', async (actor) =>
      projectJson(
        await context.gateway.workspaces.projects.create(actor, {
          workspaceId: args.workspace_id,
          worldId: args.world_id,
          title: args.title,
          description: args.description,
          status: args.status,
          steps: stepDrafts(args.steps),
        }),
      ),
    ),
});

export const updateProjectTool = defineTool({
  name: 'update_creator_flow_project',
  title: 'Update a creator-flow project (draft)',
  description:
    'Changes a project\'s title, description, status, world_id (null detaches the world) or steps; fields you omit stay as they are. ' +
    '`steps` replaces the whole plan, in order: send every step to keep with its `id` from get_creator_flow_project (a step without an id is a new step). ' +
    'Owners can also share the project: `share` gives users of this service, by e-mail and also of other accounts, a role on this project only (owner, editor or viewer), ' +
    'or takes it away with role null. Editors and owners may edit (a viewer gets MG_WORKSPACE_ROLE); only owners share. ' +
    `${draftsSpendNothing} Needs workspace:write.`,
  access: 'workspace',
  scope: 'workspace:write',
  inputSchema: {
    id: objectId('The project to change.'),
    title: z.string().min(1).max(workspaceLimits.titleLength).optional().describe('A new title.'),
    ...planFields,
    world_id: idString.nullable().optional().describe('The world (in the same workspace) the project builds; null detaches it.'),
    share: z
      .array(
        z.object({
          email: z.email().max(320).describe('The e-mail of an existing user of this service.'),
          role: z.enum(workspaceRoles).nullable().describe('Their role on this project, or null to take their access away.'),
        }),
      )
      .max(50)
      .optional()
      .describe('Owners only: project roles to give or take away.'),
  },
  outputSchema: projectShape,
  // Not idempotent, unlike the world and asset updates: a resent step without an id gets a new id each time.
  annotations: { ...updateAnnotations, idempotentHint: false },
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:write', async (actor) =>
      projectJson(
        await context.gateway.workspaces.projects.update(actor, args.id, {
          title: args.title,
          description: args.description,
          status: args.status,
          worldId: args.world_id,
          steps: stepDrafts(args.steps),
          share: args.share,
        }),
      ),
    ),
});

export const deleteProjectTool = defineTool({
  name: 'delete_creator_flow_project',
  title: 'Delete a creator-flow project (preview first)',
  description:
    'Deletes a project in two calls. 1) Call with just `id` (dry_run defaults to true): a preview that changes nothing and returns the impact ' +
    '(steps, linked generation requests, who it is shared with), whether your role allows it (`can_delete`: only owners delete projects) and `confirm_with`. ' +
    '2) Show the impact to the user and, only once they agree, call again with dry_run: false, confirmed: true and title set to the project\'s exact title (confirm_with). ' +
    'Anything else is refused with MG_DELETE_NOT_CONFIRMED naming the missing or wrong field, and nothing is deleted. ' +
    'The delete is soft: an owner can restore the project in the console until `restorable_until` (7 days), then it is purged. ' +
    'The preview needs workspace:read; the delete needs workspace:write.',
  access: 'workspace',
  scope: deleteScope,
  inputSchema: deleteInput('project', 'title'),
  outputSchema: deleteOutcomeShape,
  annotations: deleteAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, deleteScope(args), async (actor) =>
      deleteOutcomeJson(await context.gateway.workspaces.projects.delete(actor, args.id, { dryRun: args.dry_run, confirmed: args.confirmed, title: args.title })),
    ),
});
