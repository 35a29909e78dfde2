/**
 * The offline variant enhancer. Each variant is the prompt followed by its cues from variant-phrases.ts (the
 * light, plus the colour palette from `moderate`, plus the mood at `strong`), rewritten by the prompt rewriter
 * for an image or a video: the rewriter reads the cues as part of the prompt, so it adds its framing, detail and
 * camera direction around them and no light or palette that would contradict them; cues a video rewrite cuts from
 * a long prompt come back as a sentence of their own. Variant i takes the cue after variant i-1's on every axis, so
 * the variants of one request never share a cue; where the cycle starts follows the prompt, so the same request
 * always reads the same. A prompt in a language without a phrase table keeps the rewriter's restructuring,
 * followed by cues in units.
 */
import { seedFrom } from '../media/seeded-random.js';
import { continuePrompt, withPhrasesKept } from './continued-prompt.js';
import { detectLanguage, type DetectedLanguage } from './detect-language.js';
import { PHRASE_TABLES } from './phrase-tables.js';
import { rewritePrompt } from './prompt-rewriter.js';
import { UNIT_CUES, VARIANT_CUES, type VariationAxis } from './variant-phrases.js';

export type VariationStrength = 'subtle' | 'moderate' | 'strong';

export interface VariantRewriteRequest {
  prompt: string;
  /** 1 to 4: each axis has four cues. */
  count: number;
  variation: VariationStrength;
  target: 'image' | 'video';
  visualStyle?: string;
  rewriteRequest?: string;
}

export const VARIATION_AXES: Record<VariationStrength, VariationAxis[]> = {
  subtle: ['light'],
  moderate: ['light', 'palette'],
  strong: ['light', 'palette', 'mood'],
};

const CUES_PER_AXIS = 4;

export function writePromptVariants(request: VariantRewriteRequest): { texts: string[]; language: DetectedLanguage } {
  if (!Number.isInteger(request.count) || request.count < 1 || request.count > CUES_PER_AXIS) {
    throw new RangeError(`count must be a whole number from 1 to ${CUES_PER_AXIS}`);
  }
  const language = detectLanguage(request.prompt);
  const start = seedFrom(request.prompt) % CUES_PER_AXIS;
  const cuesOf = (index: number, cues: Record<VariationAxis, readonly string[]>) =>
    VARIATION_AXES[request.variation].map((axis, axisIndex) => cues[axis][(start + index + axisIndex) % CUES_PER_AXIS]);
  const rewrite = (prompt: string) =>
    rewritePrompt({ kind: request.target, prompt, visualStyle: request.visualStyle, rewriteRequest: request.rewriteRequest }).text;

  if (language === 'unknown') {
    const base = rewrite(request.prompt);
    return { texts: Array.from({ length: request.count }, (_, index) => `${base} — ${cuesOf(index, UNIT_CUES).join(' · ')}`), language };
  }
  const table = PHRASE_TABLES[language];
  const texts = Array.from({ length: request.count }, (_, index) => {
    const cues = cuesOf(index, VARIANT_CUES[language]);
    return withPhrasesKept(rewrite(continuePrompt(request.prompt, cues, table)), cues, table);
  });
  return { texts, language };
}
