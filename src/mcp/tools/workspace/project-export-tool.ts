/**
 * `export_creator_flow_project`: a point-in-time snapshot of a project, twice: as structured data (what a model
 * reads) and as one self-contained HTML page embedded as a `text/html` resource (what a person saves, searches,
 * prints, and downloads the same data from as JSON).
 */
import * as z from 'zod/v4';
import { exportAssetLimit } from '../../../kernel/workspaces/index.js';
import { defineTool } from '../mcp-tool.js';
import { renderProjectExportPage } from './project-export-page.js';
import { asWorkspaceUser } from './workspace-access.js';
import { assetSummaryShape, linkShape, objectId, projectShape, readAnnotations, worldSummaryShape } from './workspace-shapes.js';
import { snapshotJson, type SnapshotJson } from './workspace-views.js';

const snapshotShape = z.object({
  exported_at: z.string().describe('ISO 8601: the moment the snapshot shows.'),
  project: z.object(projectShape),
  world: z.object(worldSummaryShape).nullable().describe('The world the project builds, or null.'),
  world_links: z.array(linkShape).describe('Artifacts linked to the world itself.'),
  assets: z.array(z.object({ ...assetSummaryShape, links: z.array(linkShape) })).describe(`The world's assets (up to ${exportAssetLimit}, the newest), oldest first, with their linked artifacts.`),
  assets_truncated: z.boolean().describe(`True when the world has more than ${exportAssetLimit} assets and the oldest are left out of this export.`),
});

/** `mediagate://exports/<project id>/<UTC time, ISO 8601 basic format>.html`: unique per export, and a fair file name. */
function exportUri(projectId: string, exportedAt: string): string {
  return `mediagate://exports/${encodeURIComponent(projectId)}/${exportedAt.replace(/[-:]/g, '')}.html`;
}

export const exportProjectTool = defineTool({
  name: 'export_creator_flow_project',
  title: 'Export a creator-flow project as an HTML page',
  description:
    'Exports a project as it stands now. The structured result holds the data: the project with its steps, shares and generation requests, ' +
    'the world it builds and that world\'s assets with their linked artifacts. The result also carries one embedded resource (mimeType text/html, uri `resource_uri`): ' +
    'the same data as a single self-contained page for the user to save and open, with a search box, print/PDF styles and a button that downloads the data as JSON. ' +
    'Offer the page to the user rather than retyping it. The snapshot is private (share it only with whom the user wants) and does not update; ' +
    'linked media are URLs that need network access and may expire. Reads only; needs workspace:read.',
  access: 'workspace',
  scope: 'workspace:read',
  inputSchema: { id: objectId('The project to export.') },
  outputSchema: {
    project_id: z.string(),
    title: z.string(),
    exported_at: z.string().describe('ISO 8601'),
    resource_uri: z.string().describe('The uri of the embedded text/html resource that holds the page.'),
    data: snapshotShape.describe('The snapshot: exactly what the page shows and what its Download JSON button saves.'),
  },
  annotations: readAnnotations,
  handler: (args, context) =>
    asWorkspaceUser(context, 'workspace:read', async (actor) => {
      const data = snapshotJson(await context.gateway.workspaces.snapshot(actor, args.id));
      return { project_id: data.project.id, title: data.project.title, exported_at: data.exported_at, resource_uri: exportUri(data.project.id, data.exported_at), data };
    }),
  // `result` is the object the handler returned (mcp-server.ts), so `data` is snapshotJson's own value; the output
  // schema only widens step inputs to unknown, to publish a schema without recursive JSON definitions.
  extraContent: (result, context) => [
    { type: 'resource', resource: { uri: result.resource_uri, mimeType: 'text/html', text: renderProjectExportPage(result.data as SnapshotJson, { publicUrl: context.publicUrl }) } },
  ],
});
