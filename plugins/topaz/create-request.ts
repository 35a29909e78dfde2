/**
 * POST video/: a Topaz enhancement request described up front — the probed source, the filters of our model
 * and the output frame — answered with `{requestId, estimates{cost[low, high], time[low, high]}}`. It costs
 * nothing and starts nothing; Topaz bills the low end of the cost estimate once the job runs.
 * https://developer.topazlabs.com/reference/api-endpoints/video/create-request,
 * https://developer.topazlabs.com/video-api/api-walkthrough (example body),
 * https://developer.topazlabs.com/getting-started/request-parameters/video (request-level parameters).
 */
import { mapFields, ProviderError, type FieldMap, type JsonObject, type JsonValue, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import type { FrameSize, SourceVideo } from './source-probe.js';
import { PROVIDER_ID } from './topaz-vendor.js';

export const CREATE_REQUEST_PATH = 'video/';

/** What one of our model values asks of Topaz, given the probed source. */
interface TopazModel {
  /** The output frame before our input's knobs apply. */
  frame(source: SourceVideo): FrameSize;
  /** Our input field -> field of the request body. `filters` and `source` are not the input's to set. */
  fields(source: SourceVideo): FieldMap;
}

/** Proteus's factor when the input has none (the manifest defaults it to the same). */
const DEFAULT_UPSCALE_FACTOR = 2;

/**
 * Starlight renders into Topaz's 1080p tier (its pricing has a 1080p and a 4K column); the gateway prices
 * topaz-starlight flat, without a resolution factor, so the tier is fixed rather than left to grow with the
 * source. Short side 1080, long side at most 1920, aspect kept — as Topaz's own partner node for ComfyUI
 * sizes it (comfyanonymous/ComfyUI, comfy_api_nodes/nodes_topaz.py).
 */
const STARLIGHT_TIER = { shortSide: 1080, longSide: 1920 };

/**
 * Changing the frame rate takes a frame-interpolation filter after the enhancement: Apollo ("apo-8"), Topaz's
 * model for frame-rate conversion (https://developer.topazlabs.com/video-models/frame-interpolation/apollo).
 * `slowmo: 1` keeps the clip's speed.
 */
const FRAME_INTERPOLATION = { model: 'apo-8', slowmo: 1 };

/** Our model values Topaz serves. topaz-astra (Astra 2) is disabled in the manifest and not served here. */
const TOPAZ_MODELS: Record<string, TopazModel> = {
  // Proteus enhances by a factor: 1 keeps the source frame, 2 and 4 multiply both sides.
  'topaz-proteus': {
    frame: (source) => source.resolution,
    fields: (source) => ({
      upscale_factor: { to: 'output.resolution', default: DEFAULT_UPSCALE_FACTOR, transform: (factor) => scaled(source.resolution, factor) },
    }),
  },
  // Starlight Precise is the hosted enhancer; target_fps retimes the result (the source rate when absent).
  'topaz-starlight': {
    frame: (source) => inTier(source.resolution, STARLIGHT_TIER),
    fields: () => ({ target_fps: 'output.frameRate' }),
  },
};

/** The create body, or a permanent failure for a model value Topaz is not to serve. */
export function createRequestBody(input: JsonObject, route: RoutedModel, source: SourceVideo): JsonObject {
  const model = topazModel(route);
  // Whole seconds and frames per second, as the walkthrough's example and Topaz's ComfyUI node send them.
  const frameRate = Math.max(1, Math.round(source.frameRate));
  const base: JsonObject = {
    source: {
      container: source.container,
      size: source.size,
      duration: Math.max(1, Math.round(source.durationSeconds)),
      frameRate,
      frameCount: source.frameCount,
      resolution: { ...source.resolution },
    },
    output: {
      resolution: { ...model.frame(source) },
      frameRate,
      // The source's sound is carried over (re-encoded to AAC where the container needs it).
      audioCodec: 'AAC',
      audioTransfer: 'Copy',
      // We host MP4 whatever came in, so that is what Topaz writes.
      container: 'mp4',
    },
  };
  const body = mapFields(input, model.fields(source), base);
  const outputRate = (body.output as JsonObject).frameRate;
  body.filters = [{ model: route.vendorModel }, ...(outputRate !== frameRate ? [{ ...FRAME_INTERPOLATION, fps: outputRate }] : [])];
  return body;
}

/** Checked before anything is downloaded: a model Topaz is not to serve fails at once. */
export function topazModel(route: RoutedModel): TopazModel {
  if (Object.hasOwn(TOPAZ_MODELS, route.model)) return TOPAZ_MODELS[route.model];
  throw new ProviderError(`topaz: the model ${route.model} (${route.vendorModel}) is not served by this gateway's Topaz plugin`, {
    provider: PROVIDER_ID,
    retryable: false,
    vendorCode: 'unsupported_model',
  });
}

function scaled(frame: FrameSize, factor: JsonValue): JsonValue | undefined {
  if (typeof factor !== 'number' || factor <= 0) return undefined;
  return { width: even(frame.width * factor), height: even(frame.height * factor) };
}

/** The frame scaled so its short side fills the tier, unless the long side would outgrow it. */
function inTier(frame: FrameSize, tier: { shortSide: number; longSide: number }): FrameSize {
  const short = Math.min(frame.width, frame.height);
  const long = Math.max(frame.width, frame.height);
  const scale = Math.min(tier.shortSide / short, tier.longSide / long);
  return { width: even(frame.width * scale), height: even(frame.height * scale) };
}

/** Encoders want even sides (4:2:0 chroma). */
function even(value: number): number {
  return Math.max(2, 2 * Math.round(value / 2));
}
