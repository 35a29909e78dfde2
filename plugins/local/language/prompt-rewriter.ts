/**
 * The offline prompt enhancer: a deterministic rewrite that keeps the client's words and adds
 * style, framing, light and (for video) camera direction in the prompt's own language. A short prompt,
 * which names little more than a subject, also gets a setting, a lens or a movement and a palette, so that
 * "cat" comes back as a prompt a model can render. Nothing is added that the prompt already says (its light,
 * its colours: see the cues in phrase-tables.ts), and a variant is picked by a hash of the prompt, so the same
 * input always gives the same text. A prompt in a language without a phrase table is only restructured, with
 * neutral punctuation, so no foreign word is ever injected.
 */
import { aspectOrientation, parseAspectRatio } from '../media/frame-size.js';
import { seedFrom } from '../media/seeded-random.js';
import { detectLanguage, type DetectedLanguage } from './detect-language.js';
import { PHRASE_TABLES, type PhraseTable } from './phrase-tables.js';

export interface PromptRewriteRequest {
  kind: 'image' | 'video';
  prompt: string;
  visualStyle?: string;
  aspectRatio?: string;
  durationSeconds?: number;
  rewriteRequest?: string;
}

export interface PromptRewrite {
  text: string;
  language: DetectedLanguage;
}

/** "Concise" for video prompts; vendors' video models weigh the first sentences most. */
const VIDEO_WORD_LIMIT = 60;
const VIDEO_CHARACTER_LIMIT_UNSPACED = 120;
/** Up to this many words (or twice as many characters unspaced), a prompt names a subject and not a scene. */
const SHORT_PROMPT_WORDS = 6;

export function rewritePrompt(request: PromptRewriteRequest): PromptRewrite {
  const language = detectLanguage(request.prompt);
  const subject = cleanSentence(request.prompt);
  const rewrite = request.rewriteRequest ? cleanSentence(request.rewriteRequest) : '';
  // A rewrite request in another language would leak that language into the prompt.
  const addition =
    rewrite && (language === 'unknown' || detectLanguage(rewrite) === language) && rewrite !== subject ? rewrite : undefined;
  if (language === 'unknown') return { text: restructureOnly(request, subject, addition), language };
  const table = PHRASE_TABLES[language];
  // The style counts as said: "neon noir" sets the light as surely as the prompt would.
  const scene = sceneDetails(table, request.prompt, [subject, addition, request.visualStyle].filter(Boolean).join(' '));
  const text =
    request.kind === 'video' ? videoPrompt(request, table, subject, addition, scene) : imagePrompt(request, table, subject, addition, scene);
  return { text, language };
}

/** What the rewrite may add about the scene; each part is absent when the prompt already says it. */
interface SceneDetails {
  light?: string;
  palette?: string;
  setting?: string;
  lens?: string;
  action?: string;
}

function sceneDetails(table: PhraseTable, prompt: string, said: string): SceneDetails {
  const short = countWords(table, said) <= SHORT_PROMPT_WORDS;
  const pick = (kind: string, items: readonly string[]) => items[seedFrom(prompt, kind) % items.length];
  return {
    light: mentions(table, said, table.lightCues) ? undefined : pick('light', table.lighting),
    palette: short && !mentions(table, said, table.colourCues) ? pick('palette', table.palettes) : undefined,
    setting: short ? pick('setting', table.settings) : undefined,
    lens: short ? pick('lens', table.lenses) : undefined,
    action: short ? pick('action', table.actions) : undefined,
  };
}

function imagePrompt(request: PromptRewriteRequest, table: PhraseTable, subject: string, addition: string | undefined, scene: SceneDetails): string {
  const look = [request.visualStyle ? table.style(request.visualStyle) : undefined, framing(table, request.aspectRatio)];
  return sentences(table, [
    subject,
    addition,
    list(table, look),
    list(table, [scene.lens, scene.setting]),
    list(table, [scene.light, scene.palette]),
    table.imageDetail,
  ]);
}

function videoPrompt(request: PromptRewriteRequest, table: PhraseTable, subject: string, addition: string | undefined, scene: SceneDetails): string {
  const camera = table.cameraMoves[seedFrom(request.prompt) % table.cameraMoves.length];
  const shot = [
    request.durationSeconds ? table.shotLength(formatSeconds(request.durationSeconds)) : undefined,
    framing(table, request.aspectRatio),
    request.visualStyle ? table.style(request.visualStyle) : undefined,
  ];
  const direction = [scene.action, `${camera}${table.comma}${table.motion}`, list(table, shot), list(table, [scene.light, scene.setting, scene.palette])];
  const fixedWords = countWords(table, [addition ?? '', ...direction].join(' '));
  const budget = Math.max(12, VIDEO_WORD_LIMIT - fixedWords);
  return sentences(table, [shorten(table, subject, budget), addition, ...direction]);
}

/**
 * Whether the text already names one of the cues (phrase-tables.ts): as a whole word or phrase, or as the
 * start of a word for a cue ending in `-`; anywhere in scripts written without spaces.
 */
function mentions(table: PhraseTable, text: string, cues: readonly string[]): boolean {
  const lower = text.toLocaleLowerCase();
  if (table.space === '') return cues.some((cue) => lower.includes(cue));
  const words = ` ${wordsOf(lower)} `;
  return cues.some((cue) => (cue.endsWith('-') ? words.includes(` ${wordsOf(cue.slice(0, -1))}`) : words.includes(` ${wordsOf(cue)} `)));
}

/** Lower-case words separated by single spaces: "Contre-jour," and "contre jour" read alike. */
function wordsOf(text: string): string {
  return text.toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function restructureOnly(request: PromptRewriteRequest, subject: string, addition: string | undefined): string {
  const details = [
    request.visualStyle,
    request.aspectRatio,
    request.kind === 'video' && request.durationSeconds ? `${formatSeconds(request.durationSeconds)} s` : undefined,
  ].filter((part): part is string => Boolean(part));
  const parts = [subject, addition, details.length > 0 ? details.join(' · ') : undefined].filter(Boolean);
  return parts.join(' — ');
}

function framing(table: PhraseTable, aspectRatio: string | undefined): string | undefined {
  const ratio = parseAspectRatio(aspectRatio);
  if (!ratio || !aspectRatio) return undefined;
  return table.framing[aspectOrientation(ratio)](aspectRatio.trim());
}

function list(table: PhraseTable, items: Array<string | undefined>): string | undefined {
  const present = items.filter((item): item is string => Boolean(item));
  return present.length > 0 ? present.join(table.comma) : undefined;
}

function sentences(table: PhraseTable, items: Array<string | undefined>): string {
  return items
    .filter((item): item is string => Boolean(item))
    .map((item) => `${capitalise(item)}${table.stop}`)
    .join(table.space);
}

/** Trims, collapses whitespace and drops the final punctuation (the rewriter adds its own). */
function cleanSentence(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.。!！?？…;；,，、:：]+$/u, '');
}

function capitalise(text: string): string {
  const [first, ...rest] = text;
  return first ? first.toLocaleUpperCase() + rest.join('') : text;
}

function countWords(table: PhraseTable, text: string): number {
  if (table.space === '') return Math.ceil([...text.replace(/\s/g, '')].length / 2);
  return text.split(/\s+/).filter(Boolean).length;
}

function shorten(table: PhraseTable, subject: string, wordBudget: number): string {
  if (table.space === '') {
    const characters = [...subject];
    const limit = Math.min(VIDEO_CHARACTER_LIMIT_UNSPACED, wordBudget * 2);
    return characters.length <= limit ? subject : `${characters.slice(0, limit).join('')}…`;
  }
  const words = subject.split(' ');
  return words.length <= wordBudget ? subject : `${words.slice(0, wordBudget).join(' ').replace(/[,;:]$/, '')}…`;
}

function formatSeconds(seconds: number): number {
  return Number.isInteger(seconds) ? seconds : Math.round(seconds * 10) / 10;
}
