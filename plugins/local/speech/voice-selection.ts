/**
 * Maps the vendor-style narration fields onto espeak-ng's: a language voice from `language_code`
 * (or the text's detected language), a voice variant chosen stably from `voice_id` (vendor voice
 * ids are opaque, so the same id simply always gets the same espeak variant), a pitch from `tone`
 * and a rate from `speed`.
 */
import { detectLanguage, type KnownLanguage } from '../language/detect-language.js';
import { seedFrom } from '../media/seeded-random.js';

const LANGUAGE_VOICES: Record<KnownLanguage, string> = {
  en: 'en-us',
  fr: 'fr-fr',
  es: 'es',
  de: 'de',
  it: 'it',
  pt: 'pt-br',
  ja: 'ja',
  zh: 'cmn',
  ko: 'ko',
  ru: 'ru',
};

/** Regional voices espeak-ng ships under a name a language code can be mapped to directly. */
const REGIONAL_VOICES: Record<string, string> = {
  'en-gb': 'en-gb',
  'en-uk': 'en-gb',
  'en-us': 'en-us',
  'pt-pt': 'pt',
  'pt-br': 'pt-br',
  'es-es': 'es',
  'es-mx': 'es-419',
  'es-419': 'es-419',
  'fr-be': 'fr-be',
  'fr-ch': 'fr-ch',
  'zh-cn': 'cmn',
  'zh-tw': 'cmn',
  'zh-hk': 'yue',
  yue: 'yue',
  cmn: 'cmn',
};

const VARIANTS = ['m1', 'm2', 'm3', 'm4', 'f1', 'f2', 'f3', 'f4'];
const DEFAULT_WORDS_PER_MINUTE = 175;
const FALLBACK_VOICE = 'en-us';

export interface VoiceChoice {
  /** Voices to try in order: the requested language, the text's language, English. */
  voices: string[];
  wordsPerMinute: number;
  pitch: number;
}

export function chooseVoice(options: {
  text: string;
  languageCode?: string;
  voiceId?: string;
  tone?: string;
  speed?: number;
}): VoiceChoice {
  const variant = options.voiceId ? `+${VARIANTS[seedFrom(options.voiceId) % VARIANTS.length]}` : '';
  const detected = detectLanguage(options.text);
  const languages = [
    options.languageCode ? voiceForLanguageCode(options.languageCode) : undefined,
    detected === 'unknown' ? undefined : LANGUAGE_VOICES[detected],
    FALLBACK_VOICE,
  ].filter((voice): voice is string => Boolean(voice));
  const speed = options.speed && options.speed > 0 ? options.speed : 1;
  return {
    voices: [...new Set(languages)].map((voice) => `${voice}${variant}`),
    // espeak-ng accepts 80..450 words per minute.
    wordsPerMinute: Math.min(450, Math.max(80, DEFAULT_WORDS_PER_MINUTE * speed)),
    pitch: pitchFor(options.tone),
  };
}

function voiceForLanguageCode(code: string): string | undefined {
  const normalised = code.trim().toLowerCase().replace(/_/g, '-');
  const regional = REGIONAL_VOICES[normalised];
  if (regional) return regional;
  const base = normalised.split('-')[0];
  if (base in LANGUAGE_VOICES) return LANGUAGE_VOICES[base as KnownLanguage];
  // espeak-ng speaks many more languages than we have phrase tables for; let it try.
  return /^[a-z]{2,3}$/.test(base) ? base : undefined;
}

function pitchFor(tone: string | undefined): number {
  const text = (tone ?? '').toLowerCase();
  if (/calm|soft|deep|serious|warm|low/.test(text)) return 38;
  if (/excit|energ|happy|cheer|bright|high|playful/.test(text)) return 64;
  return 50;
}
