/** prompt.enhance.image and prompt.enhance.video: answered at once, no media, no task id. */
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readNumber, readString } from '../input-fields.js';
import { rewritePrompt } from '../language/prompt-rewriter.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { invalidInput } from '../media/input-media.js';

function enhance(kind: 'image' | 'video', operation: string): LocalHandler {
  return {
    async start(input: JsonObject, _ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
      const prompt = readString(input, 'prompt');
      if (!prompt) throw invalidInput('prompt is required');
      const { text } = rewritePrompt({
        kind,
        prompt,
        visualStyle: readString(input, 'visualStyle'),
        aspectRatio: readString(input, 'aspectRatio'),
        durationSeconds: kind === 'video' ? readNumber(input, 'duration') : undefined,
        rewriteRequest: readString(input, 'rewriteRequest'),
      });
      return { done: { enhancedPrompt: text, model: route.publicName, operation, status: 'succeeded' } };
    },
  };
}

export const promptEnhanceImage = enhance('image', 'prompt.enhance.image');
export const promptEnhanceVideo = enhance('video', 'prompt.enhance.video');
