/**
 * A style for a vendor without a style setting joins the prompt as a hint on its own line; a vendor with style
 * fields of its own gets a hint only for a style those fields cannot carry, so no style is sent twice.
 */
import { expect } from 'chai';
import { mapFields, promptWithStyle, styleJoinsPrompt, styleJoinsPromptUnlessMapped, type JsonObject, type JsonValue } from '../../../src/kernel/plugin-sdk/index.js';

describe('plugin SDK: style hints', () => {
  it('appends a trimmed style on a line of its own', () => {
    expect(promptWithStyle('a red fox', '  watercolor ')).to.equal('a red fox\nStyle: watercolor');
  });

  it('leaves the prompt as it is for a missing, blank or non-string style', () => {
    for (const style of [undefined, null, '', '   ', 3, ['watercolor']]) expect(promptWithStyle('a red fox', style), String(style)).to.equal('a red fox');
  });

  it('serves as the transform of a field map\'s prompt, reading the input\'s style', () => {
    const map = { prompt: { to: 'text', transform: styleJoinsPrompt } };
    expect(mapFields({ prompt: 'a red fox', style: 'cinematic' }, map)).to.deep.equal({ text: 'a red fox\nStyle: cinematic' });
    expect(mapFields({ prompt: 'a red fox' }, map)).to.deep.equal({ text: 'a red fox' });
  });

  it('hints only a style that the vendor\'s own fields do not take', () => {
    const vendorStyles = (style: JsonValue | undefined): JsonObject => (style === 'realistic' ? { style_type: 'REALISTIC' } : {});
    const map = { prompt: { to: 'prompt', transform: styleJoinsPromptUnlessMapped(vendorStyles) } };
    expect(mapFields({ prompt: 'a red fox', style: 'realistic' }, map)).to.deep.equal({ prompt: 'a red fox' });
    expect(mapFields({ prompt: 'a red fox', style: 'film noir' }, map)).to.deep.equal({ prompt: 'a red fox\nStyle: film noir' });
    expect(mapFields({ prompt: 'a red fox' }, map)).to.deep.equal({ prompt: 'a red fox' });
  });
});
