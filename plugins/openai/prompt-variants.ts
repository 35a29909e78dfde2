/**
 * prompt.enhance.variant (a guessed operation, see its manifest) on `POST /v1/chat/completions`
 * (https://platform.openai.com/docs/api-reference/chat/create) with Structured Outputs: `response_format` of type
 * `json_schema`, strict, so the reply is one JSON object `{"variants": [...]}` in `choices[0].message.content`
 * (https://platform.openai.com/docs/guides/structured-outputs). One call writes every variant, so the model can
 * keep them apart. Synchronous: `start` returns the output.
 */
import { MalformedVendorResponse, ProviderError, type JsonObject, type RoutedModel, type StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { enhancedPromptFrom } from './chat-completions.js';
import { chatUserMessage, type ChatNotes } from './chat-notes.js';
import { openAIHttp, PROVIDER_ID, type OpenAIContext, type OpenAIHandler } from './openai-api.js';

/** Relative, so that a `base_url` with a path prefix (a proxy, a compatible server) keeps it. */
const PATH = 'v1/chat/completions';

/** The manifest's defaults, for callers (tests) that drive the handler without the kernel filling them in. */
const DEFAULT_COUNT = 3;
const DEFAULT_VARIATION = 'moderate';

type Target = 'image' | 'video';

const SHAPE: Record<Target, string> = {
  image: 'Each variant is one detailed prompt for a still-image generation model: subject, setting, composition and framing, lighting, colour palette, medium.',
  video: 'Each variant is one concise prompt for a video generation model, at most 80 words: shot size, camera angle, camera movement and what moves in the scene.',
};

const VARIATION: Record<string, string> = {
  subtle: 'Vary the variants only slightly: change the lighting or the time of day, nothing else.',
  moderate: 'Vary the lighting and the colour palette from one variant to the next.',
  strong: 'Vary boldly: the lighting, the colour palette and the mood change from one variant to the next, and the viewpoint may too; the subject stays recognisable.',
};

export function variantInstructions(target: Target, variation: string): string {
  return [
    `You rewrite one prompt into several distinct variants for a ${target} generation model.`,
    'Write exactly as many variants as the notes ask for and return them in "variants", each clearly different from the others.',
    'Each variant is plain text: no numbering, no title, no quotation marks, no markdown.',
    'Write in the language of the prompt. Do not translate it and do not localise it: keep its names, places, units and cultural references as they are.',
    'The notes after the prompt are labelled in English for you; they never change the language of your reply.',
    'Every variant keeps the subject and everything the prompt asks for, and follows the visual style and the extra instruction when they are given.',
    SHAPE[target],
    VARIATION[variation] ?? VARIATION[DEFAULT_VARIATION],
  ].join('\n');
}

/** Structured Outputs in strict mode: every property required, no others (the documented subset of JSON Schema). */
const RESPONSE_FORMAT: JsonObject = {
  type: 'json_schema',
  json_schema: {
    name: 'prompt_variants',
    strict: true,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['variants'],
      properties: { variants: { type: 'array', items: { type: 'string' } } },
    },
  },
};

/** Our input fields -> the labelled notes that follow the prompt in the user message, in this order. */
const NOTES: ChatNotes = {
  visualStyle: (value) => `Visual style: ${value}`,
  rewriteRequest: (value) => `Extra instruction: ${value}`,
};

export function variantsChatRequest(input: JsonObject, vendorModel: string): JsonObject {
  const target: Target = input.target === 'video' ? 'video' : 'image';
  const variation = typeof input.variation === 'string' ? input.variation : DEFAULT_VARIATION;
  return {
    model: vendorModel,
    messages: [
      { role: 'system', content: variantInstructions(target, variation) },
      { role: 'user', content: chatUserMessage(`Prompt: ${String(input.prompt ?? '')}\nVariants: ${countOf(input)}`, input, NOTES) },
    ],
    response_format: RESPONSE_FORMAT,
  };
}

/**
 * The variants from the reply's JSON. Fewer than asked is a failure (the client pays per variant); more are cut to
 * the count, in the model's order. A refusal or a blank reply fails as for the other enhancers.
 */
export function variantsFrom(body: unknown, count: number): string[] {
  const content = enhancedPromptFrom(body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new MalformedVendorResponse(PROVIDER_ID, 'choices.0.message.content', 'JSON object');
  }
  const variants = (parsed as { variants?: unknown } | null)?.variants;
  if (!Array.isArray(variants) || !variants.every((variant) => typeof variant === 'string' && variant.trim() !== '')) {
    throw new MalformedVendorResponse(PROVIDER_ID, 'choices.0.message.content.variants', 'list of non-empty strings');
  }
  if (variants.length < count) {
    throw new ProviderError(`${PROVIDER_ID}: the model wrote ${variants.length} variant(s) where ${count} were asked for`, {
      provider: PROVIDER_ID,
      retryable: false,
      vendorCode: 'too_few_variants',
    });
  }
  return (variants as string[]).slice(0, count).map((variant) => variant.trim());
}

function countOf(input: JsonObject): number {
  return typeof input.count === 'number' ? input.count : DEFAULT_COUNT;
}

export const promptEnhanceVariant: OpenAIHandler = {
  async start(input: JsonObject, ctx: OpenAIContext, route: RoutedModel): Promise<StartResult> {
    const { data } = await openAIHttp(ctx).request({ method: 'POST', path: PATH, json: variantsChatRequest(input, route.vendorModel) });
    const variants = variantsFrom(data, countOf(input));
    return {
      done: { enhancedPrompts: variants, enhancedPrompt: variants[0], model: route.publicName, operation: 'prompt.enhance.variant', status: 'succeeded' },
    };
  },
};
