/**
 * `POST /v1/chat/completions` (https://platform.openai.com/docs/api-reference/chat/create), serving
 * prompt.enhance.image and prompt.enhance.video: a system message carries the rewrite rules of the spec, a
 * user message carries the client's prompt and its steering fields. Synchronous: `start` returns the output.
 */
import type { JsonObject, JsonValue, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { MalformedVendorResponse, pick, ProviderError } from '../../src/kernel/plugin-sdk/index.js';
import { openAIHttp, PROVIDER_ID, type OpenAIContext, type OpenAIHandler } from './openai-api.js';

/** Relative, so that a `base_url` with a path prefix (a proxy, a compatible server) keeps it. */
const PATH = 'v1/chat/completions';

type PromptKind = 'image' | 'video';

const SHARED_RULES = [
  'Reply with the rewritten prompt only, as plain text: no title, no quotation marks, no markdown, no lists, no explanation.',
  'Write in the language of the prompt. Do not translate it and do not localise it: keep its names, places, units and cultural references as they are.',
  'The notes after the prompt are labelled in English for you; they never change the language of your reply.',
  'Keep everything the prompt asks for; follow the visual style and the extra instruction when they are given.',
];

/** The rules of the spec for each kind of prompt, as the system message states them. */
const INSTRUCTIONS: Record<PromptKind, string> = {
  image: [
    'You rewrite a rough idea into one detailed prompt for a still-image generation model.',
    ...SHARED_RULES,
    'Add concrete visual detail: subject, setting, composition and framing, lighting, colour palette, lens or medium, mood.',
    'When an aspect ratio is given, compose the frame for it.',
  ].join('\n'),
  video: [
    'You rewrite a rough idea into one concise prompt for a video generation model.',
    ...SHARED_RULES,
    'Be concise: one paragraph of at most 80 words, fewer for short clips.',
    'Be camera-aware: name the shot size, the camera angle and the camera movement (for example a slow dolly-in or a static wide shot), and what moves in the scene.',
    'Fit the duration: a clip of a few seconds holds one shot and one camera move; a longer clip may hold two or three shots.',
    'When a duration or an aspect ratio is given, mention it in the prompt (for example "a 5-second 16:9 shot").',
  ].join('\n'),
};

/** Our input fields -> the labelled notes that follow the prompt in the user message, in this order. */
const NOTES: Record<string, (value: JsonValue) => string> = {
  visualStyle: (value) => `Visual style: ${value}`,
  aspectRatio: (value) => `Aspect ratio: ${value}`,
  duration: (value) => `Duration: ${value} seconds`,
  rewriteRequest: (value) => `Extra instruction: ${value}`,
};

export function chatCompletionRequest(kind: PromptKind, input: JsonObject, vendorModel: string): JsonObject {
  const notes = Object.entries(NOTES)
    .filter(([field]) => input[field] !== undefined && input[field] !== null && input[field] !== '')
    .map(([field, note]) => note(input[field]));
  return {
    model: vendorModel,
    // `system`, not the newer `developer` role: OpenAI still accepts it, and so do the compatible servers.
    messages: [
      { role: 'system', content: INSTRUCTIONS[kind] },
      { role: 'user', content: [`Prompt: ${String(input.prompt ?? '')}`, ...notes].join('\n') },
    ],
  };
}

/** The rewritten prompt: `choices[0].message.content`, trimmed. A refusal or an empty answer fails the request. */
export function enhancedPromptFrom(body: unknown): string {
  const message = pick(body, 'choices.0.message');
  if (!message || typeof message !== 'object') throw new MalformedVendorResponse(PROVIDER_ID, 'choices.0.message', 'object');
  const { content, refusal } = message as { content?: unknown; refusal?: unknown };
  const text = typeof content === 'string' ? content.trim() : '';
  if (text) return text;
  // The model may decline (https://platform.openai.com/docs/guides/structured-outputs#refusals): its reason is the message.
  if (typeof refusal === 'string' && refusal.trim()) {
    throw new ProviderError(`${PROVIDER_ID}: the model declined to rewrite the prompt: ${refusal.trim()}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'refusal' });
  }
  throw new MalformedVendorResponse(PROVIDER_ID, 'choices.0.message.content', 'non-empty string');
}

function promptEnhance(kind: PromptKind, operation: string): OpenAIHandler {
  return {
    async start(input: JsonObject, ctx: OpenAIContext, route: RoutedModel): Promise<StartResult> {
      const { data } = await openAIHttp(ctx).request({ method: 'POST', path: PATH, json: chatCompletionRequest(kind, input, route.vendorModel) });
      // The spec's prompt outputs carry no task_id.
      return { done: { enhancedPrompt: enhancedPromptFrom(data), model: route.publicName, operation, status: 'succeeded' } };
    },
  };
}

export const promptEnhanceImage = promptEnhance('image', 'prompt.enhance.image');
export const promptEnhanceVideo = promptEnhance('video', 'prompt.enhance.video');
