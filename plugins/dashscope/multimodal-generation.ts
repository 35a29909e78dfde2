/**
 * POST api/v1/services/aigc/multimodal-generation/generation: DashScope's synchronous endpoint for the Qwen image
 * models (text-to-image https://docs.qwencloud.com/api-reference/image-generation/qwen-text-to-image, editing
 * https://www.alibabacloud.com/help/en/model-studio/qwen-image-edit-api). The request is one user message whose
 * `content` holds the input images and exactly one text, plus `parameters`; the answer holds the image's URL
 * (PNG, an OSS link valid for 24 hours) in `output.choices[0].message.content[].image`.
 *
 * Synchronous on purpose: DashScope recommends it, it serves both qwen-image and qwen-image-edit (the
 * asynchronous text2image task API serves qwen-image and qwen-image-plus only), and it needs no task reader for
 * image results. Like every synchronous render it is sent once: a lost answer fails the request with a refund.
 */
import type { HostedFile, JsonObject } from '../../src/kernel/plugin-sdk/index.js';
import { MalformedVendorResponse, pick } from '../../src/kernel/plugin-sdk/index.js';
import { dashScopeHttp, PROVIDER_ID, type DashScopeContext } from './dashscope-vendor.js';

export const MULTIMODAL_GENERATION_PATH = 'api/v1/services/aigc/multimodal-generation/generation';

/**
 * The connection stays open for the whole render, prompt rewriting (on by default) included, which the SDK's
 * 60 s default cuts too close; a configured `timeout_ms` still wins.
 */
export const SYNCHRONOUS_RENDER_TIMEOUT_MS = 120_000;

/** One element of the message content: an input image (a public URL DashScope fetches itself) or the text. */
export type ContentPart = { image: string } | { text: string };

/**
 * The request body. A watermark is ours to ask for and the image operations never ask, so it is off whatever
 * the vendor's default.
 */
export function multimodalRequest(model: string, content: ContentPart[], parameters: JsonObject = {}): JsonObject {
  return { model, input: { messages: [{ role: 'user', content: content.map((part) => ({ ...part })) }] }, parameters: { watermark: false, ...parameters } };
}

/** The URL of the rendered image; an answer without one broke the documented contract. */
export function renderedImageUrl(data: unknown): string {
  const content = pick(data, 'output.choices.0.message.content');
  const image = (Array.isArray(content) ? content : []).map((part) => pick(part, 'image')).find((url) => typeof url === 'string' && url !== '');
  if (typeof image !== 'string') throw new MalformedVendorResponse(PROVIDER_ID, 'output.choices.0.message.content[].image', 'string');
  return image;
}

export interface RenderedImage {
  /** DashScope's `request_id`, or ours when the answer has none. */
  taskId: string;
  vendorUrl: string;
  hosted: HostedFile;
}

/** Sends `body` once, then copies the image into our storage before its link expires. */
export async function renderImage(ctx: DashScopeContext, body: JsonObject): Promise<RenderedImage> {
  const { data } = await dashScopeHttp(ctx).request({
    method: 'POST',
    path: MULTIMODAL_GENERATION_PATH,
    json: body,
    timeoutMs: ctx.config.timeout_ms ?? SYNCHRONOUS_RENDER_TIMEOUT_MS,
  });
  const vendorUrl = renderedImageUrl(data);
  // The docs state PNG; naming it keeps the hosted file right whatever the OSS link declares.
  const hosted = await ctx.blobs.rehost(vendorUrl, { contentType: 'image/png', extension: 'png' });
  const requestId = pick(data, 'request_id');
  return { taskId: typeof requestId === 'string' && requestId !== '' ? requestId : ctx.requestId, vendorUrl, hosted };
}
