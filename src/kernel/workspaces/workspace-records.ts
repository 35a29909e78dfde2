/**
 * The workspace domain's records, as the kernel hands them to the MCP tools, the console and the exporter.
 * Times are epoch milliseconds; ids are the store's prefixed ids (`wsp_`, `proj_`, `world_`, `asset_`).
 */
import type { JsonObject } from '../plugin-sdk/index.js';

export const workspaceRoles = ['owner', 'editor', 'viewer'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

export const projectStatuses = ['draft', 'active', 'completed', 'archived'] as const;
export type ProjectStatus = (typeof projectStatuses)[number];

export const assetKinds = ['character', 'object', 'location', 'zone'] as const;
export type AssetKind = (typeof assetKinds)[number];

export interface WorkspaceRecord {
  id: string;
  accountId: string;
  name: string;
  isDefault: boolean;
  createdAtMs: number;
}

/** One planned generation: an operation and the draft of its input. Drafts are never run by the workspace. */
export interface ProjectStep {
  id: string;
  operation: string;
  input: JsonObject;
  notes: string;
}

export interface ProjectShare {
  userId: string;
  email: string;
  role: WorkspaceRole;
}

export interface ProjectRecord {
  id: string;
  workspaceId: string;
  /** The world this project builds, if any: its assets go into the project's export. */
  worldId: string | null;
  title: string;
  description: string;
  status: ProjectStatus;
  steps: ProjectStep[];
  createdBy: string;
  createdAtMs: number;
  updatedAtMs: number;
  deletedAtMs: number | null;
}

export interface WorldRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  createdBy: string;
  createdAtMs: number;
  updatedAtMs: number;
  deletedAtMs: number | null;
}

export interface AssetRecord {
  id: string;
  worldId: string;
  workspaceId: string;
  kind: AssetKind;
  name: string;
  description: string;
  /** For a zone: the location of the same world it belongs to. */
  locationId: string | null;
  /** Reference images or videos the client gave (URLs); the workspace stores no media of its own. */
  referenceMedia: string[];
  createdBy: string;
  createdAtMs: number;
  updatedAtMs: number;
  deletedAtMs: number | null;
}

export type LinkTargetType = 'asset' | 'world' | 'project';

/** A finished generation request tied to a workspace object, with the URLs of what it produced. */
export interface ArtifactLink {
  targetType: LinkTargetType;
  targetId: string;
  requestId: string;
  operation: string;
  /** The output's hosted media: each `*_url` / `*_urls` field of the request's output when it succeeded. */
  artifacts: Record<string, string | string[]>;
  createdAtMs: number;
}

export type ObjectType = 'project' | 'world' | 'asset';

/** What confirming a delete would remove, shown by the preview and returned again when it runs. */
export interface DeleteImpact {
  type: ObjectType;
  id: string;
  title: string;
  steps?: number;
  assets?: Partial<Record<AssetKind, number>>;
  links: number;
  sharedWith?: { email: string; role: WorkspaceRole }[];
  /** Zones of a deleted location lose their location; they are not deleted. */
  zonesDetached?: number;
}

/** One page of a list, newest first; `nextCursor` continues it. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}
