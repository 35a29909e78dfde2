/**
 * A `style` for a vendor endpoint that has no style setting: rather than being dropped, it joins the prompt as a
 * hint on a line of its own (`<prompt>\nStyle: <style>`), which image models read like any other instruction.
 * A vendor with style fields of its own gets those, and a hint only for a style they cannot express.
 */
import type { JsonObject, JsonValue } from './contract.js';

/** The prompt with the style hint after it; a style that is not a non-blank string adds nothing. */
export function promptWithStyle(prompt: string, style: unknown): string {
  return typeof style === 'string' && style.trim() !== '' ? `${prompt}\nStyle: ${style.trim()}` : prompt;
}

/** `promptWithStyle` as a field-map transform of `prompt`: `{ prompt: { to: 'prompt', transform: styleJoinsPrompt } }`. */
export function styleJoinsPrompt(prompt: JsonValue, input: JsonObject): JsonValue {
  return promptWithStyle(String(prompt), input.style);
}

/**
 * The transform of `prompt` for a vendor whose own fields take some styles: `styleFields` maps a style to those
 * fields (`{}` when they cannot express it), and only a style left unmapped joins the prompt, so none is sent twice.
 */
export function styleJoinsPromptUnlessMapped(styleFields: (style: JsonValue | undefined) => JsonObject): (prompt: JsonValue, input: JsonObject) => JsonValue {
  return (prompt, input) => promptWithStyle(String(prompt), Object.keys(styleFields(input.style)).length > 0 ? undefined : input.style);
}
