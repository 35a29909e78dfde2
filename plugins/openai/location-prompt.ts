/**
 * prompt.enhance.location (a guessed operation, see its manifest) on `POST /v1/chat/completions`
 * (https://platform.openai.com/docs/api-reference/chat/create): a system message carries the rules of a place
 * description that three_d.location.generate can build (one space around one standpoint), a user message the
 * client's place and its steering fields. Synchronous: `start` returns the output.
 */
import { ProviderError, type JsonObject, type RoutedModel, type StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { enhancedPromptFrom } from './chat-completions.js';
import { chatUserMessage, type ChatNotes } from './chat-notes.js';
import { openAIHttp, PROVIDER_ID, type OpenAIContext, type OpenAIHandler } from './openai-api.js';

/** Relative, so that a `base_url` with a path prefix (a proxy, a compatible server) keeps it. */
const PATH = 'v1/chat/completions';

/** three_d.location.generate's `description` takes at most this many characters; the output promises to fit it. */
export const LOCATION_DESCRIPTION_MAX_CHARS = 2000;

export const LOCATION_INSTRUCTIONS = [
  'You rewrite a rough description of a place into one prompt for a 3D world generator, which builds a single explorable space around one standpoint from text.',
  'Reply with the rewritten description only, as plain text: no title, no quotation marks, no markdown, no lists, no explanation.',
  'Write in the language of the prompt. Do not translate it and do not localise it: keep its names, places, units and cultural references as they are.',
  'The notes after the prompt are labelled in English for you; they never change the language of your reply.',
  'Keep everything the prompt asks for; follow the setting, the visual style and the extra instruction when they are given.',
  'Describe one continuous space seen from a single standpoint: what surrounds the viewer on every side, the ground, the walls or the horizon, and what is overhead.',
  'Name materials, textures, scale, lighting and time of day. Keep it one place, not a sequence of places: no camera moves, no story, no people in the foreground.',
  'Write at most 150 words.',
].join('\n');

const SETTINGS: Record<string, string> = {
  interior: 'interior (an inside space)',
  exterior: 'exterior (an outside space)',
};

/** Our input fields -> the labelled notes that follow the prompt in the user message, in this order. */
const NOTES: ChatNotes = {
  setting: (value) => `Setting: ${SETTINGS[String(value)] ?? String(value)}`,
  visualStyle: (value) => `Visual style: ${value}`,
  rewriteRequest: (value) => `Extra instruction: ${value}`,
};

export function locationChatRequest(input: JsonObject, vendorModel: string): JsonObject {
  return {
    model: vendorModel,
    messages: [
      { role: 'system', content: LOCATION_INSTRUCTIONS },
      { role: 'user', content: chatUserMessage(`Prompt: ${String(input.prompt ?? '')}`, input, NOTES) },
    ],
  };
}

export const promptEnhanceLocation: OpenAIHandler = {
  async start(input: JsonObject, ctx: OpenAIContext, route: RoutedModel): Promise<StartResult> {
    const { data } = await openAIHttp(ctx).request({ method: 'POST', path: PATH, json: locationChatRequest(input, route.vendorModel) });
    const description = enhancedPromptFrom(data);
    // Asked for 150 words, a model may still run long; a description the location operation would refuse is no answer.
    if ([...description].length > LOCATION_DESCRIPTION_MAX_CHARS) {
      throw new ProviderError(
        `${PROVIDER_ID}: the rewritten description is ${[...description].length} characters long, more than the ${LOCATION_DESCRIPTION_MAX_CHARS} three_d.location.generate takes`,
        { provider: PROVIDER_ID, retryable: false, vendorCode: 'too_long' },
      );
    }
    return { done: { enhancedPrompt: description, model: route.publicName, operation: 'prompt.enhance.location', status: 'succeeded' } };
  },
};
