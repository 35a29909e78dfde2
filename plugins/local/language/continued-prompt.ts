/**
 * A client's prompt continued by phrases in its own language ("an old library, seen from one standpoint ..."), as
 * the location and variant enhancers hand it to the prompt rewriter: the rewriter then reads the phrases as part of
 * what the prompt says (it adds no light where one is named), and keeps them in the prompt's first sentence.
 */
import type { PhraseTable } from './phrase-tables.js';

export function continuePrompt(prompt: string, phrases: readonly string[], table: PhraseTable): string {
  // The prompt's own closing punctuation would end the sentence before the phrases continue it.
  const open = prompt.trim().replace(/[\s.。!！?？…;；,，、:：]+$/u, '');
  return [open, ...phrases].join(table.comma);
}

/**
 * The phrases a rewritten text lost (a video rewrite shortens a long first sentence), as one more sentence of it,
 * so that what makes a variant different is never cut away.
 */
export function withPhrasesKept(text: string, phrases: readonly string[], table: PhraseTable): string {
  const lost = phrases.filter((phrase) => !text.includes(phrase));
  if (lost.length === 0) return text;
  const [first, ...rest] = lost.join(table.comma);
  return `${text}${table.space}${(first ?? '').toLocaleUpperCase()}${rest.join('')}${table.stop}`;
}
