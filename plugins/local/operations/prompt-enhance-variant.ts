/** prompt.enhance.variant (a guessed operation, see its manifest): answered at once, no media, no task id. */
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readNumber, readString } from '../input-fields.js';
import { writePromptVariants, type VariationStrength } from '../language/variant-rewriter.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { invalidInput } from '../media/input-media.js';

/** The manifest's defaults, for callers (tests) that drive the handler without the kernel filling them in. */
const DEFAULT_COUNT = 3;
const STRENGTHS: readonly string[] = ['subtle', 'moderate', 'strong'] satisfies VariationStrength[];

export const promptEnhanceVariant: LocalHandler = {
  async start(input: JsonObject, _ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = readString(input, 'prompt');
    if (!prompt) throw invalidInput('prompt is required');
    const count = readNumber(input, 'count') ?? DEFAULT_COUNT;
    if (!Number.isInteger(count) || count < 1 || count > 4) throw invalidInput('count must be a whole number from 1 to 4');
    const variation = readString(input, 'variation');
    const { texts } = writePromptVariants({
      prompt,
      count,
      variation: variation !== undefined && STRENGTHS.includes(variation) ? (variation as VariationStrength) : 'moderate',
      target: readString(input, 'target') === 'video' ? 'video' : 'image',
      visualStyle: readString(input, 'visualStyle'),
      rewriteRequest: readString(input, 'rewriteRequest'),
    });
    return {
      done: { enhancedPrompts: texts, enhancedPrompt: texts[0], model: route.publicName, operation: 'prompt.enhance.variant', status: 'succeeded' },
    };
  },
};
