/**
 * The user message of the chat-completion enhancers: the client's text under a label, then one labelled note per
 * steering field that was sent, in the order of the table (labels in English for the model; they never change the
 * language of its reply). chat-completions.ts builds the same message for prompt.enhance.image and .video.
 */
import type { JsonObject, JsonValue } from '../../src/kernel/plugin-sdk/index.js';

/** Our input field -> its note, e.g. `visualStyle: (value) => \`Visual style: ${value}\``. */
export type ChatNotes = Record<string, (value: JsonValue) => string>;

export function chatUserMessage(head: string, input: JsonObject, notes: ChatNotes): string {
  const sent = Object.entries(notes)
    .filter(([field]) => input[field] !== undefined && input[field] !== null && input[field] !== '')
    .map(([field, note]) => note(input[field]));
  return [head, ...sent].join('\n');
}
