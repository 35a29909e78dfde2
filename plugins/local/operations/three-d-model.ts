/**
 * three_d.model.generate: a valid GLB built from the source images (the first one textures the
 * model and sets its proportions; their average colour, or texture_base_color, colours the rest),
 * with a PNG preview. Raw artifacts: the texture and a self-contained .gltf of the same model.
 */
import sharp from 'sharp';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString, readStringList } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { hsl, parseHexColour, type Rgb } from '../media/colour.js';
import { fetchInputToFile, requireImage } from '../media/input-media.js';
import { averageColour } from '../media/average-colour.js';
import { createRandom, seedFrom } from '../media/seeded-random.js';
import { writeEmbeddedGltf, writeGlb } from '../three-d/gltf-assembly.js';
import { renderModelPreview } from '../three-d/model-preview.js';
import { buildObjectModel } from '../three-d/object-model.js';
import { finishedAsset } from './finished-asset.js';

const DEFAULT_ASSET_KIND = 'object';
const MAX_SOURCE_IMAGES = 4;
const TEXTURE_SIZE = 1024;

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
    const texture = first
      ? await sharp(first.path).rotate().resize(TEXTURE_SIZE, TEXTURE_SIZE, { fit: 'inside', withoutEnlargement: true }).png().toBuffer()
      : undefined;
    const baseColour =
      parseHexColour(readString(input, 'texture_base_color')) ??
      (sources.length > 0 ? await averageColour(sources.map((source) => source.path)) : seededColour(name));

    const model = buildObjectModel({ name, assetKind, aspect: first?.aspect ?? 1, baseColour, texture });
    const [glb, gltf, preview] = await Promise.all([
      writeGlb(model.document),
      writeEmbeddedGltf(model.document),
      renderModelPreview(model.size, baseColour, texture),
    ]);
    const hostedModel = await ctx.blobs.put(glb, 'model/gltf-binary', 'glb');
    const hostedPreview = await ctx.blobs.put(preview, 'image/png', 'png');
    const rawArtifacts = [await ctx.blobs.put(gltf, 'model/gltf+json', 'gltf')];
    if (texture) rawArtifacts.unshift(await ctx.blobs.put(texture, 'image/png', 'png'));
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


function seededColour(name: string): Rgb {
  return hsl(createRandom(seedFrom(name)).range(0, 360), 0.55, 0.55);
}
