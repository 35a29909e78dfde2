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

  it('answers prompt.enhance.image with the enhanced prompt, the template as its model, and the operation only', async () => {
    const output = await harness.run('prompt.enhance.image', {
      prompt: 'A red fox in the snow at dawn',
      visualStyle: 'watercolor',
      aspectRatio: '9:16',
    });
    // "at dawn" already sets the light and "red" the colours: the rewrite adds neither.
    expect(output).to.deep.equal({
      enhancedPrompt: 'A red fox in the snow at dawn. Watercolor style, vertical 9:16 composition. Rich detail, balanced composition.',
      model: 'local-prompt-template',
      operation: 'prompt.enhance.image',
      status: 'succeeded',
    });
  });

  it('names the template, not the vendor model it was routed to, whichever model the client asked for', async () => {
    const route = { model: 'gpt-4.1-mini', vendorModel: 'gpt-4.1-mini', publicName: 'gpt-4.1-mini' };
    for (const operation of ['prompt.enhance.image', 'prompt.enhance.video']) {
      const output = await harness.run(operation, { prompt: 'a lighthouse on a cliff' }, route);
      expect(output.model, operation).to.equal('local-prompt-template');
    }
  });

  it('makes a one-word English prompt a full image prompt: framing, lens, setting, light and palette', async () => {
    const output = await harness.run('prompt.enhance.image', { prompt: 'cat', aspectRatio: '16:9' });
    expect(output.enhancedPrompt).to.equal(
      'Cat. Widescreen 16:9 composition. Eye-level view, 50 mm lens, simple setting that frames the subject. ' +
        'Warm golden-hour light, harmonious natural colours. Rich detail, balanced composition.',
    );
  });

  it('makes a one-word English prompt a full video prompt: movement, camera, shot, light, setting and palette', async () => {
    const output = await harness.run('prompt.enhance.video', { prompt: 'cat', aspectRatio: '16:9', duration: 5 });
    expect(output.enhancedPrompt).to.equal(
      'Cat. A gentle breeze stirring the scene. Gentle crane up, wide angle, steady, fluid motion. 5-second shot, widescreen 16:9 composition. ' +
        'Warm golden-hour light, simple setting that frames the subject, harmonious natural colours.',
    );
  });

  // One word per language with a phrase table: each comes back several sentences long, in its own language,
  // with the table's light and setting phrases, and the same text every time.
  for (const [language, word] of [
    ['en', 'dog'],
    ['fr', 'chat'],
    ['es', 'perro'],
    ['de', 'Katze'],
    ['it', 'gatto'],
    ['pt', 'cachorro'],
    ['ja', 'ねこ'],
    ['zh', '猫'],
    ['ko', '고양이'],
    ['ru', 'кошка'],
  ] as const) {
    for (const operation of ['prompt.enhance.image', 'prompt.enhance.video']) {
      it(`${operation} enriches the one-word ${language} prompt "${word}" in ${language}`, async () => {
        const output = await harness.run(operation, { prompt: word });
        const again = await harness.run(operation, { prompt: word });
        const text = String(output.enhancedPrompt);
        const table = PHRASE_TABLES[language];
        expect(again.enhancedPrompt).to.equal(text);
        expect(text.toLocaleLowerCase().startsWith(word.toLocaleLowerCase())).to.equal(true);
        expect(text.split(table.stop).filter(Boolean).length, text).to.be.at.least(4);
        expect([...text].length, text).to.be.at.least(8 * [...word].length + 40);
        expect(detectLanguage(text), text).to.equal(language);
        const lower = text.toLocaleLowerCase();
        expect(table.lighting.some((phrase) => lower.includes(phrase.toLocaleLowerCase())), text).to.equal(true);
        expect(table.settings.some((phrase) => lower.includes(phrase.toLocaleLowerCase())), text).to.equal(true);
        expect(table.palettes.some((phrase) => lower.includes(phrase.toLocaleLowerCase())), text).to.equal(true);
      });
    }
  }

  it('adds no light to a prompt that names its light or time of day, and no palette to one that names a colour', async () => {
    for (const [prompt, language] of [
      ['a cat at night', 'en'],
      ['un chat sous la lune', 'fr'],
      ['eine Katze im Mondlicht', 'de'],
      ['кошка ночью', 'ru'],
      ['夜の猫', 'ja'],
      ['밤에 고양이', 'ko'],
    ] as const) {
      const text = String((await harness.run('prompt.enhance.image', { prompt })).enhancedPrompt).toLocaleLowerCase();
      expect(PHRASE_TABLES[language].lighting.some((phrase) => text.includes(phrase.toLocaleLowerCase())), text).to.equal(false);
    }
    for (const [prompt, language] of [
      ['a red bicycle', 'en'],
      ['un vélo rouge', 'fr'],
      ['una bicicletta rossa', 'it'],
      ['красный велосипед', 'ru'],
    ] as const) {
      const text = String((await harness.run('prompt.enhance.image', { prompt })).enhancedPrompt).toLocaleLowerCase();
      expect(PHRASE_TABLES[language].palettes.some((phrase) => text.includes(phrase.toLocaleLowerCase())), text).to.equal(false);
    }
  });

  it('leaves a one-word prompt two languages share as it is, rather than guess the wrong language', async () => {
    // "gato" is Spanish and Portuguese alike.
    expect(detectLanguage('gato')).to.equal('unknown');
    const output = await harness.run('prompt.enhance.image', { prompt: 'gato', aspectRatio: '1:1' });
    expect(output.enhancedPrompt).to.equal('gato — 1:1');
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
