/**
 * The Meshy task object, as GET /openapi/v1/image-to-3d/{id} and /multi-image-to-3d/{id} return it
 * (https://docs.meshy.ai/api/image-to-3d, lifecycle at https://docs.meshy.ai/api/task-lifecycle), read into
 * what the gateway needs. Pure: no I/O, so every vendor shape is testable without a network.
 */
import { pick, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './meshy-vendor.js';

/** A vendor file to copy into our storage, with the type and extension its URL alone would not tell. */
export interface VendorFile {
  url: string;
  contentType?: string;
  extension?: string;
}

export type MeshyTaskView =
  | { state: 'pending'; progress?: number }
  | { state: 'failed'; message: string }
  | { state: 'succeeded'; model: VendorFile; thumbnailUrl?: string; artifacts: VendorFile[] };

const GLB_FILE = { contentType: 'model/gltf-binary', extension: 'glb' };

/**
 * Media types of the other `model_urls` formats (vendor CDNs tend to answer octet-stream). A format not
 * listed is still copied, as octet-stream under its own name.
 */
const MODEL_FORMAT_TYPES: Record<string, string> = {
  fbx: 'application/octet-stream',
  usdz: 'model/vnd.usdz+zip',
  obj: 'model/obj',
  mtl: 'model/mtl',
  stl: 'model/stl',
  '3mf': 'model/3mf',
};

export function readMeshyTask(data: unknown): MeshyTaskView {
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  switch (status) {
    case 'SUCCEEDED':
      return {
        state: 'succeeded',
        model: { url: requireField<string>(data, 'model_urls.glb', PROVIDER_ID), ...GLB_FILE },
        thumbnailUrl: stringAt(data, 'thumbnail_url'),
        artifacts: [...otherModelFiles(data), ...textureFiles(data)],
      };
    case 'FAILED':
      return { state: 'failed', message: stringAt(data, 'task_error.message') ?? 'Meshy reported the task as FAILED without a message' };
    // Only Creative Lab tasks use CANCELED, but it is final whoever cancelled.
    case 'CANCELED':
      return { state: 'failed', message: stringAt(data, 'task_error.message') ?? 'the Meshy task was cancelled' };
    case 'PENDING':
      return { state: 'pending', progress: 0 };
    default:
      // IN_PROGRESS, and any stage Meshy adds later: keep waiting; the manifest's give-up time bounds it.
      return { state: 'pending', progress: numberAt(data, 'progress') };
  }
}

/** Every `model_urls` entry but the GLB (which is `model_url`), e.g. FBX and USDZ. */
function otherModelFiles(data: unknown): VendorFile[] {
  const urls = pick(data, 'model_urls');
  if (!isRecord(urls)) return [];
  return Object.entries(urls)
    .filter((entry): entry is [string, string] => entry[0] !== 'glb' && isUrl(entry[1]) && /^[a-z0-9]{1,8}$/.test(entry[0]))
    .map(([format, url]) => ({ url, extension: format, contentType: MODEL_FORMAT_TYPES[format] ?? 'application/octet-stream' }));
}

/**
 * The texture maps (base colour, metallic, roughness, normal). image-to-3d answers one object, other task
 * types an array of them (meshy-dev/meshy-mcp-server, src/types.ts); both are read. Their media type comes
 * from the download.
 */
function textureFiles(data: unknown): VendorFile[] {
  const textures = pick(data, 'texture_urls');
  const sets = Array.isArray(textures) ? textures : [textures];
  return sets.filter(isRecord).flatMap((set) => Object.values(set).filter(isUrl).map((url) => ({ url })));
}

function stringAt(data: unknown, path: string): string | undefined {
  const value = pick(data, path);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function numberAt(data: unknown, path: string): number | undefined {
  const value = pick(data, path);
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\//.test(value);
}
