/**
 * GET /marble/v1/worlds/{world_id}: a generated world and its asset URLs
 * (https://docs.worldlabs.ai/api/reference/worlds/get; assets per the OpenAPI's WorldAssets). The finished
 * operation usually carries the same world in `response`; this endpoint is the fallback when it does not.
 */
import { MalformedVendorResponse, pick, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './worldlabs-vendor.js';

export function worldPath(worldId: string): string {
  return `marble/v1/worlds/${encodeURIComponent(worldId)}`;
}

export interface WorldFiles {
  /** Gaussian splats, SPZ: the only splat format Marble returns (PLY is a separate, paid export). */
  spzUrl: string;
  panoUrl: string;
  colliderUrl: string;
  thumbnailUrl?: string;
}

/** `spz_urls` is keyed by splat count; the fullest one present is the world's splat. */
const SPZ_RESOLUTIONS = ['full_res', '500k', '100k'];

/** Whether a world object already lists its splats (an operation's snapshot may not). */
export function hasWorldAssets(world: unknown): boolean {
  const urls = pick(world, 'assets.splats.spz_urls');
  return urls !== null && typeof urls === 'object';
}

export function readWorldFiles(world: unknown): WorldFiles {
  const spzUrls = requireField<Record<string, unknown>>(world, 'assets.splats.spz_urls', PROVIDER_ID, 'object');
  const spzUrl = SPZ_RESOLUTIONS.map((resolution) => spzUrls[resolution]).find((url): url is string => typeof url === 'string' && url !== '');
  if (!spzUrl) throw new MalformedVendorResponse(PROVIDER_ID, 'assets.splats.spz_urls.full_res', 'string');
  const thumbnailUrl = pick(world, 'assets.thumbnail_url');
  return {
    spzUrl,
    panoUrl: requireField<string>(world, 'assets.imagery.pano_url', PROVIDER_ID),
    colliderUrl: requireField<string>(world, 'assets.mesh.collider_mesh_url', PROVIDER_ID),
    thumbnailUrl: typeof thumbnailUrl === 'string' && thumbnailUrl !== '' ? thumbnailUrl : undefined,
  };
}
