/**
 * The offline location enhancer. The place's description, continued by where the viewer stands (in the prompt's
 * language), goes through the prompt rewriter as one still-image prompt, so it gains the rewriter's style, light
 * and detail and its extra instruction like any prompt; a sentence on how the space reads follows, because
 * three_d.location.generate builds one coherent space around one standpoint. The standpoint is part of what the
 * rewriter reads, so the rewriter does not also treat the place as a bare subject in front of a background.
 * A prompt in a language without a phrase table gets only the rewriter's restructuring and a language-free `360°`.
 */
import { continuePrompt } from './continued-prompt.js';
import { detectLanguage, type DetectedLanguage } from './detect-language.js';
import { LOCATION_PHRASES } from './location-phrases.js';
import { PHRASE_TABLES } from './phrase-tables.js';
import { rewritePrompt } from './prompt-rewriter.js';

export type LocationSetting = 'interior' | 'exterior';

export interface LocationRewriteRequest {
  prompt: string;
  setting?: LocationSetting;
  visualStyle?: string;
  rewriteRequest?: string;
}

export function rewriteLocationPrompt(request: LocationRewriteRequest): { text: string; language: DetectedLanguage } {
  const language = detectLanguage(request.prompt);
  const { visualStyle, rewriteRequest } = request;
  if (language === 'unknown') {
    const base = rewritePrompt({ kind: 'image', prompt: request.prompt, visualStyle, rewriteRequest });
    return { text: `${base.text} — 360°`, language };
  }
  const phrases = LOCATION_PHRASES[language];
  const table = PHRASE_TABLES[language];
  const place = continuePrompt(request.prompt, [phrases.standpoint[request.setting ?? 'any']], table);
  const base = rewritePrompt({ kind: 'image', prompt: place, visualStyle, rewriteRequest });
  return { text: `${base.text}${table.space}${phrases.surfaces}`, language };
}
