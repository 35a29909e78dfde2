/**
 * three_d.location.generate: a 360° panorama of the place (from its description, with the source
 * images placed at their azimuths), Gaussian splats sampled from it as `.splat` and `.spz`, and a
 * floor-and-walls collider GLB. Previews: the panorama and the view straight ahead.
 */
import sharp from 'sharp';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readObjectList, readNumber, readString, readStringList } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { fetchInputToFile, requireImage } from '../media/input-media.js';
import { averageColour } from '../media/average-colour.js';
import { seedFrom } from '../media/seeded-random.js';
import { cloudFromPanorama } from '../three-d/gaussian-cloud.js';
import { writeGlb } from '../three-d/gltf-assembly.js';
import { PANORAMA_HEIGHT, PANORAMA_WIDTH, renderPanorama, type PanoramaView } from '../three-d/panorama.js';
import { buildRoomCollider } from '../three-d/room-collider.js';
import { encodeSplat, encodeSpz } from '../three-d/splat-formats.js';
import { finishedAsset } from './finished-asset.js';

const MAX_SOURCE_IMAGES = 8;
/** 256×128 cells: 32 768 splats, about 1 MB as .splat, enough to read the panorama back. */
const SPLAT_GRID_WIDTH = 256;
const SPLAT_GRID_HEIGHT = 128;
const SPHERE_RADIUS = 7.5;
const EYE_HEIGHT = 1.6;
const ROOM_HALF_EXTENT = 8;
const ROOM_WALL_HEIGHT = 6;

export const threeDLocationGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const description = readString(input, 'description') ?? readString(input, 'name') ?? '';
    const views = await sourceViews(ctx, input);
    const panorama = await renderPanorama({
      seed: seedFrom(description, readString(input, 'location_id')),
      views,
      tint: views.length > 0 ? await averageColour(views.map((view) => view.imagePath)) : undefined,
    });
    const grid = await sharp(panorama).resize(SPLAT_GRID_WIDTH, SPLAT_GRID_HEIGHT, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const cloud = cloudFromPanorama({
      rgb: grid,
      width: SPLAT_GRID_WIDTH,
      height: SPLAT_GRID_HEIGHT,
      radius: SPHERE_RADIUS,
      floorY: -EYE_HEIGHT,
    });
    const collider = await writeGlb(
      buildRoomCollider({ halfExtent: ROOM_HALF_EXTENT, floorY: -EYE_HEIGHT, wallHeight: ROOM_WALL_HEIGHT }),
    );
    const [panoramaPreview, aheadPreview] = await Promise.all([
      sharp(panorama).resize(PANORAMA_WIDTH / 2, PANORAMA_HEIGHT / 2).png().toBuffer(),
      // Straight ahead is the panorama's centre; a 90° wide crop reads as a normal photo.
      sharp(panorama)
        .extract({ left: (PANORAMA_WIDTH * 3) / 8, top: PANORAMA_HEIGHT / 4, width: PANORAMA_WIDTH / 4, height: PANORAMA_HEIGHT / 2 })
        .resize(1024, 576, { fit: 'cover' })
        .png()
        .toBuffer(),
    ]);
    const pano = await ctx.blobs.put(panorama, 'image/png', 'png');
    const splat = await ctx.blobs.put(encodeSplat(cloud), 'application/octet-stream', 'splat');
    const spz = await ctx.blobs.put(await encodeSpz(cloud, ctx.signal), 'application/octet-stream', 'spz');
    const colliderGlb = await ctx.blobs.put(collider, 'model/gltf-binary', 'glb');
    const previews = [await ctx.blobs.put(panoramaPreview, 'image/png', 'png'), await ctx.blobs.put(aheadPreview, 'image/png', 'png')];
    return {
      done: finishedAsset('3d_location', route, {
        splat_url: splat.url,
        spz_url: spz.url,
        pano_url: pano.url,
        collider_glb_url: colliderGlb.url,
        preview_image_urls: previews.map((preview) => preview.url),
      }),
    };
  },
};

/**
 * Source images with their look direction: from angle_context when it names the image, otherwise
 * spread evenly around the circle in the order given.
 */
async function sourceViews(ctx: LocalContext, input: JsonObject): Promise<PanoramaView[]> {
  const urls = readStringList(input, 'source_image_urls').slice(0, MAX_SOURCE_IMAGES);
  const azimuths = new Map<string, number>();
  for (const context of readObjectList(input, 'angle_context')) {
    const url = readString(context, 'image_url');
    const azimuth = readNumber(context, 'azimuth');
    if (url && azimuth !== undefined) azimuths.set(url, azimuth);
  }
  return Promise.all(
    urls.map(async (url, index) => {
      const fetched = await fetchInputToFile(ctx, url, `source_image_urls[${index}]`);
      await requireImage(fetched);
      return { imagePath: fetched.path, azimuth: azimuths.get(url) ?? (360 * index) / urls.length };
    }),
  );
}
