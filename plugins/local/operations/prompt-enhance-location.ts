/** prompt.enhance.location (a guessed operation, see its manifest): answered at once, no media, no task id. */
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString } from '../input-fields.js';
import { rewriteLocationPrompt, type LocationSetting } from '../language/location-rewriter.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { invalidInput } from '../media/input-media.js';

const SETTINGS: readonly string[] = ['interior', 'exterior'] satisfies LocationSetting[];

export const promptEnhanceLocation: LocalHandler = {
  async start(input: JsonObject, _ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = readString(input, 'prompt');
    if (!prompt) throw invalidInput('prompt is required');
    const setting = readString(input, 'setting');
    const { text } = rewriteLocationPrompt({
      prompt,
      setting: setting !== undefined && SETTINGS.includes(setting) ? (setting as LocationSetting) : undefined,
      visualStyle: readString(input, 'visualStyle'),
      rewriteRequest: readString(input, 'rewriteRequest'),
    });
    return { done: { enhancedPrompt: text, model: route.publicName, operation: 'prompt.enhance.location', status: 'succeeded' } };
  },
};
