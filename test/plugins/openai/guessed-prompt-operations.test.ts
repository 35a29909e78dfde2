/**
 * prompt.enhance.location and prompt.enhance.variant (guessed operations) on OpenAI's Chat Completions, replayed
 * from the documented shapes: the chat completion object (https://platform.openai.com/docs/api-reference/chat/object)
 * and, for variants, Structured Outputs (`response_format: {type: 'json_schema', json_schema: {name, strict, schema}}`,
 * the reply's JSON in `choices[0].message.content`; https://platform.openai.com/docs/guides/structured-outputs).
 */
import { expect } from 'chai';
import openai from '../../../plugins/openai/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { describeVendorFailures, failure, useNock } from '../../support/vendor-conformance.js';
import { chatCompletion, CONFIG, INVALID_API_KEY, openAIApi } from './openai-test-kit.js';

/** The rules every enhancer's system message carries (spec, prompt.enhance.* rule 1). */
const SHARED_RULES = [/plain text/, /language of the prompt/, /Do not translate/, /do not localise/];

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: unknown;
}

const VARIANTS_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'prompt_variants',
    strict: true,
    schema: { type: 'object', additionalProperties: false, required: ['variants'], properties: { variants: { type: 'array', items: { type: 'string' } } } },
  },
};

const variantsReply = (variants: unknown) => chatCompletion(JSON.stringify({ variants }));

describe('openai plugin: the guessed prompt operations (chat completions)', () => {
  useNock();
  let harness: PluginHarness;
  before(async () => {
    harness = await createPluginHarness(openai, CONFIG);
  });
  after(() => harness.close());

  describe('prompt.enhance.location', () => {
    it('asks for one place around one standpoint, with the setting and steering fields as notes, and answers the trimmed text', async () => {
      let sent: ChatBody | undefined;
      const description = 'Le hall d’une gare abandonnée vu depuis son centre : verrière brisée, quais couverts de mousse, lumière de fin d’après-midi.';
      openAIApi()
        .post('/v1/chat/completions', (body: ChatBody) => ((sent = body), true))
        .matchHeader('content-type', 'application/json')
        .reply(200, chatCompletion(`  ${description}\n`));

      const result = await harness.start('prompt.enhance.location', {
        prompt: 'une gare abandonnée',
        setting: 'interior',
        visualStyle: 'photoréaliste',
        rewriteRequest: 'fin d’après-midi',
      });

      expect(result).to.deep.equal({ done: { enhancedPrompt: description, model: 'gpt-4.1-mini', operation: 'prompt.enhance.location', status: 'succeeded' } });
      expect(harness.checkOutput('prompt.enhance.location', (result as { done: unknown }).done)).to.deep.equal([]);
      expect(Object.keys(sent!)).to.deep.equal(['model', 'messages']);
      expect(sent!.model).to.equal('gpt-4.1-mini');
      expect(sent!.messages.map((message) => message.role)).to.deep.equal(['system', 'user']);
      for (const rule of [...SHARED_RULES, /3D world generator/, /single standpoint/, /every side/, /at most 150 words/]) expect(sent!.messages[0].content).to.match(rule);
      expect(sent!.messages[1].content).to.equal('Prompt: une gare abandonnée\nSetting: interior (an inside space)\nVisual style: photoréaliste\nExtra instruction: fin d’après-midi');
    });

    it('sends only the notes it was given', async () => {
      let sent: ChatBody | undefined;
      openAIApi().post('/v1/chat/completions', (body: ChatBody) => ((sent = body), true)).reply(200, chatCompletion('A harbour at dawn, seen from the quay.'));
      await harness.start('prompt.enhance.location', { prompt: 'a harbour', setting: 'exterior' });
      expect(sent!.messages[1].content).to.equal('Prompt: a harbour\nSetting: exterior (an outside space)');
    });

    it("fails permanently when the rewrite would not fit three_d.location.generate's description", async () => {
      openAIApi().post('/v1/chat/completions').reply(200, chatCompletion('x'.repeat(2001)));
      const error = await failure(harness.start('prompt.enhance.location', { prompt: 'a harbour' }));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('openai: the rewritten description is 2001 characters long, more than the 2000 three_d.location.generate takes');
    });

    it('fails permanently with the model’s reason when it refuses', async () => {
      openAIApi().post('/v1/chat/completions').reply(200, chatCompletion(null, "I'm sorry, I can't help with that."));
      const error = await failure(harness.start('prompt.enhance.location', { prompt: 'somewhere' }));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal("openai: the model declined to rewrite the prompt: I'm sorry, I can't help with that.");
    });
  });

  describe('prompt.enhance.variant', () => {
    it('asks for `count` variants as strict JSON, with the strength and target in the rules, and answers them in order', async () => {
      let sent: ChatBody | undefined;
      const variants = ['Un perro corre por la playa al amanecer, travelling lateral.', 'Un perro corre por la playa de noche bajo farolas, plano cenital.'];
      openAIApi().post('/v1/chat/completions', (body: ChatBody) => ((sent = body), true)).reply(200, variantsReply(variants.map((variant) => ` ${variant} `)));

      const result = await harness.start('prompt.enhance.variant', {
        prompt: 'un perro corriendo por la playa',
        count: 2,
        variation: 'strong',
        target: 'video',
        visualStyle: 'cine de 35 mm',
      });

      expect(result).to.deep.equal({
        done: { enhancedPrompts: variants, enhancedPrompt: variants[0], model: 'gpt-4.1-mini', operation: 'prompt.enhance.variant', status: 'succeeded' },
      });
      expect(harness.checkOutput('prompt.enhance.variant', (result as { done: unknown }).done)).to.deep.equal([]);
      expect(Object.keys(sent!)).to.deep.equal(['model', 'messages', 'response_format']);
      expect(sent!.response_format).to.deep.equal(VARIANTS_FORMAT);
      for (const rule of [...SHARED_RULES, /video generation model/, /Write exactly as many variants as the notes ask for/, /at most 80 words/, /Vary boldly/]) {
        expect(sent!.messages[0].content).to.match(rule);
      }
      expect(sent!.messages[1].content).to.equal('Prompt: un perro corriendo por la playa\nVariants: 2\nVisual style: cine de 35 mm');
    });

    it('defaults to 3 moderate still-image variants when driven without the kernel’s defaults', async () => {
      let sent: ChatBody | undefined;
      openAIApi().post('/v1/chat/completions', (body: ChatBody) => ((sent = body), true)).reply(200, variantsReply(['a', 'b', 'c']));
      const result = await harness.start('prompt.enhance.variant', { prompt: 'a red bicycle' });
      expect((result as { done: { enhancedPrompts: string[] } }).done.enhancedPrompts).to.deep.equal(['a', 'b', 'c']);
      expect(sent!.messages[0].content).to.match(/still-image generation model/).and.match(/colour palette from one variant to the next/);
      expect(sent!.messages[1].content).to.equal('Prompt: a red bicycle\nVariants: 3');
    });

    it('keeps the first `count` variants when the model writes more', async () => {
      openAIApi().post('/v1/chat/completions').reply(200, variantsReply(['one', 'two', 'three']));
      const result = await harness.start('prompt.enhance.variant', { prompt: 'p', count: 2, variation: 'subtle' });
      expect((result as { done: { enhancedPrompts: string[] } }).done.enhancedPrompts).to.deep.equal(['one', 'two']);
    });

    it('fails permanently when the model writes fewer variants than were paid for', async () => {
      openAIApi().post('/v1/chat/completions').reply(200, variantsReply(['only one']));
      const error = await failure(harness.start('prompt.enhance.variant', { prompt: 'p', count: 3 }));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('openai: the model wrote 1 variant(s) where 3 were asked for');
    });

    for (const [name, content, message] of [
      ['content that is not JSON', 'Here are your variants: ...', 'openai: malformed response: choices.0.message.content is missing or not a JSON object'],
      ['JSON without a variants list', '{"prompts": ["a"]}', 'openai: malformed response: choices.0.message.content.variants is missing or not a list of non-empty strings'],
      ['a blank variant', '{"variants": ["a", "  "]}', 'openai: malformed response: choices.0.message.content.variants is missing or not a list of non-empty strings'],
    ] as const) {
      it(`treats ${name} as a malformed response`, async () => {
        openAIApi().post('/v1/chat/completions').reply(200, chatCompletion(content));
        const error = await failure(harness.start('prompt.enhance.variant', { prompt: 'p', count: 2 }));
        expect(error.retryable).to.equal(false);
        expect(error.message).to.equal(message);
      });
    }

    it('fails permanently with the model’s reason when it refuses (Structured Outputs refusal)', async () => {
      openAIApi().post('/v1/chat/completions').reply(200, chatCompletion(null, "I'm sorry, I can't help with that."));
      const error = await failure(harness.start('prompt.enhance.variant', { prompt: 'p', count: 2 }));
      expect(error.message).to.equal("openai: the model declined to rewrite the prompt: I'm sorry, I can't help with that.");
    });
  });
});

describe('openai plugin: the guessed prompt operations, vendor failures', () => {
  const rejection = { status: 401, body: INVALID_API_KEY, message: INVALID_API_KEY.error.message };
  describeVendorFailures(openai, CONFIG, [
    {
      name: 'prompt.enhance.location',
      operation: 'prompt.enhance.location',
      input: { prompt: 'an abandoned train station' },
      endpoint: () => openAIApi().post('/v1/chat/completions'),
      success: chatCompletion('An abandoned station hall seen from its centre.'),
      malformed: { ...chatCompletion('x'), choices: [] },
      malformedMessage: 'openai: malformed response: choices.0.message is missing or not a object',
      rejection,
    },
    {
      name: 'prompt.enhance.variant',
      operation: 'prompt.enhance.variant',
      input: { prompt: 'a red bicycle', count: 2 },
      endpoint: () => openAIApi().post('/v1/chat/completions'),
      success: variantsReply(['A red bicycle at dawn.', 'A red bicycle at night.']),
      malformed: { ...chatCompletion('x'), choices: [] },
      malformedMessage: 'openai: malformed response: choices.0.message is missing or not a object',
      rejection,
    },
  ]);
});
