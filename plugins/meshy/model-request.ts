/**
 * The parts of a Meshy 3D-model request that the image-to-3d and multi-image-to-3d endpoints share: both
 * take the same generation options and differ only in how the source images are sent
 * (https://docs.meshy.ai/api/image-to-3d, https://docs.meshy.ai/api/multi-image-to-3d).
 */
import type { FieldMap, JsonObject, RoutedModel } from '../../src/kernel/plugin-sdk/index.js';

/** One Meshy create endpoint: where it lives and how our input maps onto its body. */
export interface MeshyModelEndpoint {
  /** Relative to the base URL; the task is read back at `${path}/{id}` and deleted there. */
  path: string;
  fields: FieldMap;
}

/**
 * Formats asked for besides GLB: the FBX and USDZ artifacts the output's `raw_artifact_urls` promises.
 * Without `target_formats` Meshy also renders OBJ and STL (slower, and more to copy); the field is in
 * Meshy's own client schema (meshy-dev/meshy-mcp-server, src/schemas/generation.ts).
 */
export const TARGET_FORMATS = ['glb', 'fbx', 'usdz'];

/** Body fields every model request carries, whatever the input says. */
export function modelRequestDefaults(route: RoutedModel): JsonObject {
  return {
    ai_model: route.vendorModel,
    // Textured output is what the gateway sells; it is also Meshy's default, sent so a change there
    // cannot silently turn our models grey.
    should_texture: true,
    target_formats: TARGET_FORMATS,
  };
}

/**
 * Meshy has no colour parameter. `texture_prompt` (at most 600 characters) guides the texturing stage, so
 * the colour becomes a short instruction there: a hint the model follows, not an exact paint.
 */
export const generationFields: FieldMap = {
  texture_base_color: {
    to: 'texture_prompt',
    transform: (colour) => (typeof colour === 'string' ? `Use ${colour.toUpperCase()} as the base colour of the surface.` : undefined),
  },
};
