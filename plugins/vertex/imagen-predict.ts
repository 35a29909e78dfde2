/**
 * image.generate with Imagen on Vertex AI: `POST .../publishers/google/models/{model}:predict`
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api). Synchronous: the images
 * come back base64 in `predictions[].bytesBase64Encoded` with their `mimeType`, and Vertex keeps no copy, so
 * our hosted URLs are the only URLs of them.
 */
import type { FieldMap, JsonObject, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { extensionForContentType, generatedTaskId, imageGenerationOutput, MalformedVendorResponse, mapFields, pick, promptWithStyle, ProviderError, requireField, unsupportedInput } from '../../src/kernel/plugin-sdk/index.js';
import { vertexRequest } from './vertex-api.js';
import { PROVIDER_ID, publisherModelPath, type VertexContext, type VertexHandler } from './vertex-config.js';

/** Imagen's own default, sent explicitly so that the output's `aspect_ratio` states what was rendered. */
const DEFAULT_ASPECT_RATIO = '1:1';

/** Imagen's default output format (`outputOptions.mimeType`), for a prediction that does not name its type. */
const DEFAULT_MIME_TYPE = 'image/png';

/**
 * Our fields -> `parameters`. The manifest already limits imagen-4 to the ratios Imagen 4 renders (1:1, 3:4,
 * 4:3, 9:16, 16:9) and to `sampleImageSize` 1K or 2K; without a resolution Imagen renders 1K, the price's base.
 * `quality` is not sent: Imagen has no such setting, and the manifest says such models ignore it.
 */
const PARAMETERS_MAP: FieldMap = {
  aspect_ratio: { to: 'parameters.aspectRatio', default: DEFAULT_ASPECT_RATIO },
  resolution: 'parameters.sampleImageSize',
};

/**
 * One image per request (the output and the price are per image). `includeRaiReason` makes Vertex say why
 * it filtered an image out instead of silently returning none, so the client learns the reason.
 */
const BASE_PARAMETERS: JsonObject = { parameters: { sampleCount: 1, includeRaiReason: true } };

/**
 * The request body: one instance holding the prompt, and the parameters. Imagen has no style parameter
 * (`sampleImageStyle` was imagegeneration@002 only): a style hint joins the prompt.
 */
function predictRequest(input: JsonObject): JsonObject {
  return { instances: [{ prompt: promptWithStyle(String(input.prompt ?? ''), input.style) }], ...mapFields(input, PARAMETERS_MAP, BASE_PARAMETERS) };
}

interface PredictedImage {
  bytes: Buffer;
  contentType: string;
}

/**
 * The images of a predict response, or a permanent failure saying why there is none: a prediction that
 * Responsible AI filtered carries `raiFilteredReason` instead of bytes (VisionGenerativeModelResult,
 * https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/Shared.Types/VisionGenerativeModelResult).
 */
function imagesFromPredictions(body: unknown): PredictedImage[] {
  const predictions = requireField<unknown[]>(body, 'predictions', PROVIDER_ID, 'array');
  const images = predictions
    .map((prediction) => ({ data: pick(prediction, 'bytesBase64Encoded'), mimeType: pick(prediction, 'mimeType') }))
    .filter((image): image is { data: string; mimeType: unknown } => typeof image.data === 'string' && image.data.length > 0)
    .map(({ data, mimeType }) => ({ bytes: Buffer.from(data, 'base64'), contentType: typeof mimeType === 'string' && mimeType.startsWith('image/') ? mimeType : DEFAULT_MIME_TYPE }));
  if (images.length > 0) return images;
  const reasons = predictions.map((prediction) => pick(prediction, 'raiFilteredReason')).filter((reason): reason is string => typeof reason === 'string' && reason.trim().length > 0);
  if (reasons.length > 0) {
    throw new ProviderError(`${PROVIDER_ID}: no image was rendered: ${reasons.join(' ').trim().slice(0, 500)}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'rai_filtered' });
  }
  throw new MalformedVendorResponse(PROVIDER_ID, 'predictions.0.bytesBase64Encoded', 'string');
}

/**
 * Imagen generates from text alone; reference images need Imagen's customization model, a different endpoint
 * and request. Rendering without them would bill an image that ignores what the client asked for.
 */
function refuseReferenceImages(input: JsonObject, route: RoutedModel): void {
  if (!Array.isArray(input.reference_image_urls) || input.reference_image_urls.length === 0) return;
  throw unsupportedInput(PROVIDER_ID, `${route.publicName} (${route.vendorModel}) takes no reference images; leave out reference_image_urls or choose a model that takes them`);
}

export const imagenGenerate: VertexHandler = {
  async start(input: JsonObject, ctx: VertexContext, route: RoutedModel): Promise<StartResult> {
    // Before any call, the token exchange included: a refused request costs the vendor nothing.
    refuseReferenceImages(input, route);
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    const { data } = await vertexRequest(ctx, { method: 'POST', path: `${publisherModelPath(ctx.config, route.vendorModel)}:predict`, json: predictRequest(input) });
    const hosted = await Promise.all(imagesFromPredictions(data).map((image) => ctx.blobs.put(image.bytes, image.contentType, extensionForContentType(image.contentType))));
    // A predict call has no id of its own to report.
    const taskId = generatedTaskId(PROVIDER_ID);
    return { done: imageGenerationOutput({ taskId, urls: hosted.map((file) => file.url), provider: PROVIDER_ID, model: route.publicName, aspectRatio }) };
  },
};
