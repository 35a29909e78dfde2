import { expect } from 'chai';
import { detectLanguage } from '../../../plugins/local/language/detect-language.js';
import { PHRASE_TABLES } from '../../../plugins/local/language/phrase-tables.js';
import { createLocalHarness, type LocalHarness } from './local-harness.js';

describe('local plugin: prompt.enhance.*', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  it('answers prompt.enhance.image with the enhanced prompt, model and operation only', async () => {
    const output = await harness.run('prompt.enhance.image', {
      prompt: 'A red fox in the snow at dawn',
      visualStyle: 'watercolor',
      aspectRatio: '9:16',
    });
    expect(output).to.deep.equal({
      enhancedPrompt:
        'A red fox in the snow at dawn. Watercolor style, vertical 9:16 composition. Rich detail, balanced composition, soft natural light.',
      model: 'local-test',
      operation: 'prompt.enhance.image',
      status: 'succeeded',
    });
  });

  it('is deterministic: the same input gives the same rewrite', async () => {
    const input = { prompt: 'Un phare sous la tempête, vagues énormes', visualStyle: 'cinématique', duration: 8, aspectRatio: '16:9' };
    const first = await harness.run('prompt.enhance.video', input);
    const second = await harness.run('prompt.enhance.video', input);
    expect(second.enhancedPrompt).to.equal(first.enhancedPrompt);
  });

  it('keeps a French prompt French and adds a French camera direction', async () => {
    const prompt = 'Un chat roux dormant sur le toit au coucher du soleil';
    const output = await harness.run('prompt.enhance.video', {
      prompt,
      visualStyle: 'cinématique',
      duration: 5,
      aspectRatio: '16:9',
      rewriteRequest: 'Rends la scène plus chaleureuse',
    });
    const text = String(output.enhancedPrompt);
    expect(text.startsWith(prompt)).to.equal(true);
    expect(detectLanguage(text)).to.equal('fr');
    expect(PHRASE_TABLES.fr.cameraMoves.some((move) => text.toLowerCase().includes(move))).to.equal(true);
    expect(text.toLowerCase()).to.include('plan de 5 secondes');
    expect(text).to.include('Rends la scène plus chaleureuse');
    expect(text).not.to.match(/\b(the|shot|eye-level|widescreen|motion)\b/i);
  });

  for (const [language, prompt] of [
    ['es', 'Un gato negro en la ventana con luz de luna'],
    ['de', 'Ein Hund läuft über die Wiese im Sommer'],
    ['it', 'Un cane che corre sulla spiaggia al tramonto'],
    ['pt', 'Um cachorro correndo na praia ao pôr do sol'],
    ['ja', '夕暮れの東京の街並み、ネオンが光る'],
    ['zh', '一只猫坐在窗台上'],
    ['ko', '해질녘 바닷가를 걷는 강아지'],
    ['ru', 'Кошка спит на крыше на закате'],
  ] as const) {
    it(`keeps a ${language} prompt in ${language}`, async () => {
      const output = await harness.run('prompt.enhance.video', { prompt, duration: 4, aspectRatio: '16:9' });
      const text = String(output.enhancedPrompt);
      expect(text).to.include(prompt.replace(/[.。]$/, ''));
      expect(detectLanguage(text)).to.equal(language);
      expect(PHRASE_TABLES[language].cameraMoves.some((move) => text.toLowerCase().includes(move.toLowerCase()))).to.equal(true);
    });
  }

  it('only restructures a prompt in a language it has no phrases for', async () => {
    const output = await harness.run('prompt.enhance.video', { prompt: 'Γάτα που κοιμάται στη στέγη.', duration: 6, aspectRatio: '16:9' });
    expect(output.enhancedPrompt).to.equal('Γάτα που κοιμάται στη στέγη — 16:9 · 6 s');
  });

  it('does not mix a rewrite request in another language into the prompt', async () => {
    const output = await harness.run('prompt.enhance.image', {
      prompt: 'Un chat roux dormant sur le toit',
      rewriteRequest: 'make it more dramatic',
    });
    expect(String(output.enhancedPrompt)).not.to.include('dramatic');
    expect(detectLanguage(String(output.enhancedPrompt))).to.equal('fr');
  });

  it('keeps video prompts concise', async () => {
    const longPrompt = Array.from({ length: 90 }, (_, index) => `word${index}`).join(' ') + ' in the rain with the city lights';
    const output = await harness.run('prompt.enhance.video', { prompt: longPrompt, duration: 5, aspectRatio: '16:9', visualStyle: 'noir' });
    expect(String(output.enhancedPrompt).split(/\s+/).length).to.be.at.most(62);
  });
});
