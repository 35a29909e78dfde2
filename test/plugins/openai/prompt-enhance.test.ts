import { expect } from 'chai';
import openai from '../../../plugins/openai/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { chatCompletion, CONFIG, openAIApi } from './openai-test-kit.js';
import { failure, useNock } from '../../support/vendor-conformance.js';

/** The system message must carry these rules of the spec, whatever else it says. */
const SHARED_RULES = [/plain text/, /language of the prompt/, /Do not translate/, /do not localise/];

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

describe('openai plugin: prompt.enhance.* (chat completions)', () => {
  useNock();
  let harness: PluginHarness;
  before(async () => {
    harness = await createPluginHarness(openai, CONFIG);
  });
  after(() => harness.close());

  it('prompt.enhance.image: sends the rules and the steering fields, answers with the trimmed rewrite', async () => {
    let sent: ChatBody | undefined;
    openAIApi()
      .post('/v1/chat/completions', (body: ChatBody) => ((sent = body), true))
      .matchHeader('content-type', 'application/json')
      .reply(200, chatCompletion('\n  A lighthouse on a basalt cliff at dusk, oil painting, wide 3:2 frame.  \n'));

    const result = await harness.start('prompt.enhance.image', { prompt: 'a lighthouse on a cliff', visualStyle: 'oil painting', aspectRatio: '3:2' });

    expect(result).to.deep.equal({
      done: {
        enhancedPrompt: 'A lighthouse on a basalt cliff at dusk, oil painting, wide 3:2 frame.',
        model: 'gpt-4.1-mini',
        operation: 'prompt.enhance.image',
        status: 'succeeded',
      },
    });
    expect(harness.checkOutput('prompt.enhance.image', (result as { done: unknown }).done)).to.deep.equal([]);
    expect(Object.keys(sent!)).to.deep.equal(['model', 'messages']);
    expect(sent!.model).to.equal('gpt-4.1-mini');
    expect(sent!.messages.map((message) => message.role)).to.deep.equal(['system', 'user']);
    for (const rule of [...SHARED_RULES, /still-image/, /aspect ratio/]) expect(sent!.messages[0].content).to.match(rule);
    expect(sent!.messages[1].content).to.equal('Prompt: a lighthouse on a cliff\nVisual style: oil painting\nAspect ratio: 3:2');
  });

  it('prompt.enhance.video: asks for a concise, camera-aware rewrite that mentions duration and aspect ratio', async () => {
    let sent: ChatBody | undefined;
    openAIApi()
      .post('/v1/chat/completions', (body: ChatBody) => ((sent = body), true))
      .reply(200, chatCompletion('Plan vertical 9:16 de 6 secondes : lent travelling avant vers une terrasse de café sous la pluie, lumière chaude du soir.'));

    const result = await harness.start('prompt.enhance.video', {
      prompt: 'un café en terrasse sous la pluie',
      duration: 6,
      aspectRatio: '9:16',
      rewriteRequest: 'slow push-in, warm evening light',
    });

    expect(result).to.deep.equal({
      done: {
        enhancedPrompt: 'Plan vertical 9:16 de 6 secondes : lent travelling avant vers une terrasse de café sous la pluie, lumière chaude du soir.',
        model: 'gpt-4.1-mini',
        operation: 'prompt.enhance.video',
        status: 'succeeded',
      },
    });
    expect(harness.checkOutput('prompt.enhance.video', (result as { done: unknown }).done)).to.deep.equal([]);
    for (const rule of [...SHARED_RULES, /concise/, /camera movement/, /duration/, /mention it/]) expect(sent!.messages[0].content).to.match(rule);
    expect(sent!.messages[1].content).to.equal(
      'Prompt: un café en terrasse sous la pluie\nAspect ratio: 9:16\nDuration: 6 seconds\nExtra instruction: slow push-in, warm evening light',
    );
  });

  it('reaches any OpenAI-compatible server configured as base_url, keeping its path prefix', async () => {
    const compatible = await createPluginHarness(openai, { ...CONFIG, base_url: 'http://llm.internal:8080/openai' });
    openAIApi('http://llm.internal:8080').post('/openai/v1/chat/completions').reply(200, chatCompletion('桜の下で眠る猫、柔らかな朝の光。'));
    const result = await compatible.start('prompt.enhance.image', { prompt: '桜の下の猫' }).finally(() => compatible.close());
    expect((result as { done: { enhancedPrompt: string } }).done.enhancedPrompt).to.equal('桜の下で眠る猫、柔らかな朝の光。');
  });

  it('fails permanently with the model’s reason when it refuses', async () => {
    openAIApi().post('/v1/chat/completions').reply(200, chatCompletion(null, "I'm sorry, I can't help with that."));
    const error = await failure(harness.start('prompt.enhance.image', { prompt: 'something' }));
    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal("openai: the model declined to rewrite the prompt: I'm sorry, I can't help with that.");
  });

  it('treats a blank answer as a malformed response', async () => {
    openAIApi().post('/v1/chat/completions').reply(200, chatCompletion('   '));
    const error = await failure(harness.start('prompt.enhance.video', { prompt: 'a fox running through snow' }));
    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('openai: malformed response: choices.0.message.content is missing or not a non-empty string');
  });
});
