/**
 * Generation requests that name workspace objects (the manifest's `workspace_links`, e.g. `character_id` of
 * three_d.model.generate): at create, before any debit, every named object must exist, fit together and be
 * writable by the caller; when the request succeeds, its hosted artifacts are linked to them in the finishing
 * transaction, so a link exists exactly when its request succeeded.
 */
import { ApiError } from '../errors/index.js';
import type { OperationManifest, OperationRegistry, WorkspaceLinkTarget } from '../manifests/index.js';
import type { JsonObject } from '../plugin-sdk/index.js';
import type { SqlExecutor } from '../store/index.js';
import type { WorkspaceAccess } from './workspace-access.js';
import type { ArtifactLink, AssetKind, AssetRecord, LinkTargetType, ProjectRecord, WorkspaceRecord, WorkspaceRole, WorldRecord } from './workspace-records.js';
import { roleAtLeast } from './workspace-roles.js';
import { WorkspaceStore } from './workspace-store.js';

/**
 * Who creates the request. A developer API key acts for its account: it may link to the account's own
 * workspaces. An OAuth client acts for its user: their role must allow editing, and the token must carry
 * `workspace:write` (the spec keeps workspace access to OAuth scopes).
 */
export interface LinkingCaller {
  accountId: string;
  userId?: string;
  workspaceWrite?: boolean;
}

interface NamedObject {
  field: string;
  target: WorkspaceLinkTarget;
  id: string;
}

type Resolved =
  | { field: string; kind: 'workspace'; workspace: WorkspaceRecord }
  | { field: string; kind: 'project'; project: ProjectRecord }
  | { field: string; kind: 'world'; world: WorldRecord }
  | { field: string; kind: 'asset'; asset: AssetRecord };

export class ArtifactLinker {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly access: WorkspaceAccess,
    private readonly registry: OperationRegistry,
  ) {}

  /** Whether a finished request has objects to link (decides whether its finish needs a transaction). */
  wantsLinks(request: { operation: string; input: JsonObject | null }): boolean {
    return namedObjects(this.registry.get(request.operation)?.manifest, request.input).length > 0;
  }

  /** Throws 404 / 403 / 422 naming the input field unless every object the input names may be linked by `caller`. */
  async checkAtCreate(caller: LinkingCaller, manifest: OperationManifest, input: JsonObject): Promise<void> {
    const named = namedObjects(manifest, input);
    if (named.length === 0) return;
    if (caller.userId !== undefined && !caller.workspaceWrite) {
      throw new ApiError('MG_INSUFFICIENT_SCOPE', `${named.map((object) => object.field).join(', ')} link the result to workspace objects, which needs the workspace:write scope; approve the application again with it`, {
        errors: named.map((object) => ({ path: `/input/${object.field}`, message: 'needs the workspace:write scope' })),
      });
    }
    const resolved: Resolved[] = [];
    for (const object of named) resolved.push(await this.resolve(object));
    for (const object of resolved) await this.requireWritable(caller, object);
    checkFit(resolved);
  }

  /** Inside the finishing transaction of a request that succeeded with `output`. */
  async linkAtFinish(tx: SqlExecutor, request: { id: string; operation: string; input: JsonObject | null }, output: JsonObject, nowMs: number): Promise<void> {
    const named = namedObjects(this.registry.get(request.operation)?.manifest, request.input);
    const artifacts = hostedArtifacts(output);
    const assets = named.filter((object) => object.target.startsWith('asset:'));
    const targets: { type: LinkTargetType; id: string }[] = [
      ...assets.map((object) => ({ type: 'asset' as const, id: object.id })),
      // The world is the target only when no asset of it was named (the artifact belongs to the asset then).
      ...(assets.length === 0 ? named.filter((object) => object.target === 'world').map((object) => ({ type: 'world' as const, id: object.id })) : []),
      ...named.filter((object) => object.target === 'project').map((object) => ({ type: 'project' as const, id: object.id })),
    ];
    for (const target of targets) {
      const link: ArtifactLink = { targetType: target.type, targetId: target.id, requestId: request.id, operation: request.operation, artifacts, createdAtMs: nowMs };
      await WorkspaceStore.insertLink(tx, link);
    }
  }

  private async resolve(object: NamedObject): Promise<Resolved> {
    const { store } = this;
    const path = `/input/${object.field}`;
    const missing = () => new ApiError('MG_WORKSPACE_OBJECT_NOT_FOUND', `${object.field}: no ${object.target.replace('asset:', '')} ${object.id} that you can see`, {
      errors: [{ path, message: 'names no object you can see' }],
    });
    switch (object.target) {
      case 'workspace': {
        const workspace = await store.workspace(object.id);
        if (!workspace) throw missing();
        return { field: object.field, kind: 'workspace', workspace };
      }
      case 'project': {
        const project = await store.project(object.id);
        if (!project) throw missing();
        return { field: object.field, kind: 'project', project };
      }
      case 'world': {
        const world = await store.world(object.id);
        if (!world) throw missing();
        return { field: object.field, kind: 'world', world };
      }
      default: {
        const asset = await store.asset(object.id);
        if (!asset || !(await store.world(asset.worldId))) throw missing();
        const kind = object.target.slice('asset:'.length) as AssetKind;
        if (asset.kind !== kind) {
          throw new ApiError('MG_VALIDATION_FAILED', `${object.field} names a ${asset.kind}, not a ${kind}`, { errors: [{ path, message: `must name a ${kind}; ${object.id} is a ${asset.kind}` }] });
        }
        return { field: object.field, kind: 'asset', asset };
      }
    }
  }

  private async requireWritable(caller: LinkingCaller, object: Resolved): Promise<void> {
    const workspaceId = workspaceOf(object);
    const workspace = await this.store.workspace(workspaceId);
    const path = `/input/${object.field}`;
    const notVisible = new ApiError('MG_WORKSPACE_OBJECT_NOT_FOUND', `${object.field}: no such object that you can see`, { errors: [{ path, message: 'names no object you can see' }] });
    if (!workspace) throw notVisible;
    let role: WorkspaceRole | undefined;
    if (caller.userId === undefined) {
      // An API key writes for its account: the account's own workspaces only.
      role = workspace.accountId === caller.accountId ? 'owner' : undefined;
    } else {
      const actor = { userId: caller.userId, accountId: caller.accountId };
      role = object.kind === 'project' ? await this.access.projectRole(actor, object.project) : await this.access.workspaceRole(actor, workspace);
    }
    if (role === undefined) throw notVisible;
    if (!roleAtLeast(role, 'editor')) {
      throw new ApiError('MG_WORKSPACE_ROLE', `${object.field}: your role on it is ${role}; linking a generated artifact needs editor`, { errors: [{ path, message: 'needs the editor role' }] });
    }
  }
}

/** The ids the input names for the manifest's `workspace_links` fields, in the manifest's order. */
function namedObjects(manifest: OperationManifest | undefined, input: JsonObject | null): NamedObject[] {
  if (!manifest?.workspace_links || !input) return [];
  return Object.entries(manifest.workspace_links).flatMap(([field, target]) => {
    const id = input[field];
    return typeof id === 'string' && id.length > 0 ? [{ field, target, id }] : [];
  });
}

function workspaceOf(object: Resolved): string {
  switch (object.kind) {
    case 'workspace': return object.workspace.id;
    case 'project': return object.project.workspaceId;
    case 'world': return object.world.workspaceId;
    case 'asset': return object.asset.workspaceId;
  }
}

/** The named objects must describe one place: one workspace, the asset in the named universe, the zone in the named location. */
function checkFit(objects: Resolved[]): void {
  const misfit = (field: string, message: string) => new ApiError('MG_VALIDATION_FAILED', `${field} ${message}`, { errors: [{ path: `/input/${field}`, message }] });
  const first = objects[0]!;
  for (const object of objects) {
    if (workspaceOf(object) !== workspaceOf(first)) throw misfit(object.field, `is in another workspace than ${first.field}`);
  }
  const world = objects.find((object): object is Extract<Resolved, { kind: 'world' }> => object.kind === 'world');
  const assets = objects.filter((object): object is Extract<Resolved, { kind: 'asset' }> => object.kind === 'asset');
  for (const asset of assets) {
    if (world && asset.asset.worldId !== world.world.id) throw misfit(asset.field, `is not in the universe ${world.world.id} (${world.field})`);
  }
  const location = assets.find((object) => object.asset.kind === 'location');
  const zone = assets.find((object) => object.asset.kind === 'zone');
  if (location && zone) {
    if (zone.asset.worldId !== location.asset.worldId) throw misfit(zone.field, `is not in the same world as ${location.field}`);
    if (zone.asset.locationId !== null && zone.asset.locationId !== location.asset.id) throw misfit(zone.field, `is a zone of another location than ${location.field}`);
  }
}

/** Every hosted media URL of an output: `*_url` strings and `*_urls` string arrays. */
export function hostedArtifacts(output: JsonObject): Record<string, string | string[]> {
  const artifacts: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(output)) {
    if (key.endsWith('_url') && typeof value === 'string') artifacts[key] = value;
    else if (key.endsWith('_urls') && Array.isArray(value) && value.every((item) => typeof item === 'string')) artifacts[key] = value as string[];
  }
  return artifacts;
}
