/**
 * three_d.model.generate: a valid GLB built from the source images: a relief of the first one (its subject
 * raised from its backdrop, the image as the texture: three-d/relief-mesh.ts), in its proportions; the
 * average colour of all of them, or texture_base_color, colours the back and sides. Only the front comes
 * from the picture: other views are not fused into a full 3D shape. With a PNG preview (the relief shaded).
 * Raw artifacts: the texture and a self-contained .gltf of the same model.
 */
import sharp from 'sharp';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString, readStringList } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { parseHexColour } from '../media/colour.js';
import { fetchInputToFile, invalidInput, requireImage } from '../media/input-media.js';
import { averageColour } from '../media/average-colour.js';
import { writeEmbeddedGltf, writeGlb } from '../three-d/gltf-assembly.js';
import { renderModelPreview } from '../three-d/model-preview.js';
import { buildObjectModel } from '../three-d/object-model.js';
import { heightFieldFromImage, type HeightField } from '../three-d/relief-mesh.js';
import { finishedAsset } from './finished-asset.js';

const DEFAULT_ASSET_KIND = 'object';
const MAX_SOURCE_IMAGES = 4;
const TEXTURE_SIZE = 1024;
/** Grid cells along the relief's longer side: 129 × 129 vertices at most, fine enough to read the subject. */
const RELIEF_CELLS = 128;

export const threeDModelGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const assetKind = readString(input, 'asset_kind') ?? DEFAULT_ASSET_KIND;
    const name = readString(input, 'name') ?? 'model';
    const sources = await Promise.all(
      readStringList(input, 'source_image_urls')
        .slice(0, MAX_SOURCE_IMAGES)
        .map(async (url, index) => {
          const fetched = await fetchInputToFile(ctx, url, `source_image_urls[${index}]`);
          const size = await requireImage(fetched);
          return { path: fetched.path, aspect: size.width / size.height };
        }),
    );
    const [first] = sources;
    if (!first) throw invalidInput('source_image_urls needs at least one image');
    const texture = await sharp(first.path).rotate().resize(TEXTURE_SIZE, TEXTURE_SIZE, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
    const relief = await reliefOf(first.path, first.aspect);
    const baseColour = parseHexColour(readString(input, 'texture_base_color')) ?? (await averageColour(sources.map((source) => source.path)));

    const model = buildObjectModel({ name, assetKind, aspect: first.aspect, baseColour, texture, relief });
    const [glb, gltf, preview] = await Promise.all([
      writeGlb(model.document),
      writeEmbeddedGltf(model.document),
      renderModelPreview(model.size, baseColour, texture, relief),
    ]);
    const hostedModel = await ctx.blobs.put(glb, 'model/gltf-binary', 'glb');
    const hostedPreview = await ctx.blobs.put(preview, 'image/png', 'png');
    const rawArtifacts = [await ctx.blobs.put(texture, 'image/png', 'png'), await ctx.blobs.put(gltf, 'model/gltf+json', 'gltf')];
    return {
      done: finishedAsset('3d_model', route, {
        model_url: hostedModel.url,
        preview_image_urls: [hostedPreview.url],
        raw_artifact_urls: rawArtifacts.map((artifact) => artifact.url),
        asset_kind: assetKind,
      }),
    };
  },
};

/** The image sampled once per relief vertex (EXIF orientation applied, transparency kept). */
async function reliefOf(imagePath: string, aspect: number): Promise<HeightField> {
  const columns = aspect >= 1 ? RELIEF_CELLS : Math.max(2, Math.round(RELIEF_CELLS * aspect));
  const rows = aspect >= 1 ? Math.max(2, Math.round(RELIEF_CELLS / aspect)) : RELIEF_CELLS;
  const rgba = await sharp(imagePath).rotate().resize(columns + 1, rows + 1, { fit: 'fill' }).toColourspace('srgb').ensureAlpha().raw().toBuffer();
  return heightFieldFromImage(rgba, columns, rows);
}
