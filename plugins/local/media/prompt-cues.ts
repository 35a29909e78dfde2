/**
 * What a prompt says about the look of a picture, read deterministically from its words: colour words and
 * what they qualify ("a red bicycle against a white wall": a red subject, a white wall), the time of day
 * (night is dark, sunset warm), the season, and the setting (sea, forest, city, desert, snow...). Scenes,
 * video frames and colour grades are drawn from these cues, so a prompt's picture shows what it names.
 *
 * English words only: prompts in other languages keep their seeded look (the prompt enhancer, not this
 * reader, deals with languages).
 */
import type { Rgb } from './colour.js';

export type TimeOfDay = 'night' | 'sunset' | 'dawn' | 'day';
export type Season = 'autumn' | 'winter' | 'spring' | 'summer';
export type Setting = 'sea' | 'beach' | 'forest' | 'city' | 'desert' | 'snow' | 'mountain' | 'field' | 'space' | 'indoor';

/** Parts of a scene a colour word can name instead of the subject. */
export type ScenePart = 'sky' | 'wall' | 'floor' | 'water' | 'ground';

export interface ColourCue {
  word: string;
  colour: Rgb;
  /** The part of the scene the word qualifies; undefined when it qualifies the subject. */
  part?: ScenePart;
}

export interface PromptCues {
  /** Colour words, in the prompt's order. */
  colours: ColourCue[];
  timeOfDay?: TimeOfDay;
  season?: Season;
  /** The first setting the prompt names. */
  setting?: Setting;
  /** "black and white", "monochrome", "grayscale". */
  monochrome: boolean;
}

const COLOURS: Record<string, Rgb> = {
  red: { r: 214, g: 40, b: 40 },
  crimson: { r: 190, g: 20, b: 50 },
  scarlet: { r: 230, g: 40, b: 20 },
  maroon: { r: 120, g: 20, b: 30 },
  orange: { r: 245, g: 130, b: 30 },
  amber: { r: 245, g: 170, b: 30 },
  yellow: { r: 245, g: 215, b: 40 },
  gold: { r: 225, g: 180, b: 50 },
  golden: { r: 225, g: 180, b: 50 },
  green: { r: 50, g: 160, b: 70 },
  emerald: { r: 20, g: 150, b: 100 },
  lime: { r: 150, g: 210, b: 50 },
  olive: { r: 120, g: 125, b: 45 },
  teal: { r: 30, g: 130, b: 130 },
  turquoise: { r: 50, g: 200, b: 190 },
  cyan: { r: 40, g: 200, b: 220 },
  blue: { r: 40, g: 90, b: 210 },
  azure: { r: 60, g: 140, b: 230 },
  navy: { r: 25, g: 35, b: 100 },
  indigo: { r: 70, g: 40, b: 150 },
  purple: { r: 130, g: 50, b: 170 },
  violet: { r: 140, g: 80, b: 200 },
  lavender: { r: 180, g: 160, b: 225 },
  magenta: { r: 210, g: 40, b: 160 },
  pink: { r: 240, g: 130, b: 170 },
  rose: { r: 230, g: 110, b: 140 },
  brown: { r: 120, g: 75, b: 40 },
  tan: { r: 200, g: 160, b: 110 },
  beige: { r: 225, g: 210, b: 180 },
  cream: { r: 245, g: 235, b: 210 },
  ivory: { r: 245, g: 242, b: 225 },
  white: { r: 244, g: 244, b: 240 },
  black: { r: 22, g: 22, b: 26 },
  grey: { r: 128, g: 128, b: 132 },
  gray: { r: 128, g: 128, b: 132 },
  silver: { r: 190, g: 192, b: 198 },
};

/** Nouns that make a colour word describe the scene rather than the subject ("a white wall", "pink sky"). */
const PART_NOUNS: Record<string, ScenePart> = {
  sky: 'sky', skies: 'sky', clouds: 'sky', sunset: 'sky',
  wall: 'wall', walls: 'wall', background: 'wall', backdrop: 'wall', room: 'wall', studio: 'wall',
  floor: 'floor', floors: 'floor', carpet: 'floor', table: 'floor', tiles: 'floor',
  sea: 'water', ocean: 'water', water: 'water', lake: 'water', river: 'water', waves: 'water',
  ground: 'ground', grass: 'ground', field: 'ground', fields: 'ground', sand: 'ground', meadow: 'ground', hills: 'ground', road: 'ground',
};

const TIMES: Array<[TimeOfDay, RegExp]> = [
  ['night', /^(night|nights|nighttime|midnight|moonlit|moonlight|moon|starry|stars|dark|neon)$/],
  ['sunset', /^(sunset|sunsets|dusk|evening|twilight|golden-hour)$/],
  ['dawn', /^(dawn|sunrise|daybreak|morning)$/],
  ['day', /^(day|daytime|daylight|noon|midday|afternoon|sunny|sunlit|bright)$/],
];

const SEASONS: Array<[Season, RegExp]> = [
  ['autumn', /^(autumn|autumnal|fall)$/],
  ['winter', /^(winter|wintry)$/],
  ['spring', /^(spring|springtime|blossom|blossoms)$/],
  ['summer', /^(summer|summertime)$/],
];

const SETTINGS: Array<[Setting, RegExp]> = [
  ['beach', /^(beach|beaches|shore|seaside|coast|coastal)$/],
  ['sea', /^(sea|seas|ocean|oceans|lake|harbour|harbor|boat|boats|sailing|river|bay)$/],
  ['forest', /^(forest|forests|woods|woodland|jungle|trees|tree|pines)$/],
  ['city', /^(city|cities|street|streets|skyline|downtown|buildings|urban|market|town|alley|skyscrapers)$/],
  ['desert', /^(desert|deserts|dunes|dune|canyon|cactus|sahara)$/],
  ['snow', /^(snow|snowy|snowfall|ice|icy|glacier|arctic|frozen|blizzard)$/],
  ['mountain', /^(mountain|mountains|alpine|peak|peaks|summit|valley|cliffs)$/],
  ['field', /^(field|fields|meadow|meadows|farm|prairie|countryside|landscape|hills|garden|park)$/],
  ['space', /^(space|galaxy|nebula|planet|planets|cosmos|universe|orbit)$/],
  ['indoor', /^(room|wall|walls|kitchen|studio|office|interior|indoors|indoor|bedroom|hall|library|cafe|restaurant|table|desk)$/],
];

/** Words that may stand between a colour and its noun ("a red vintage bicycle", "bright blue sky"). */
const MAX_NOUN_DISTANCE = 3;

export function readPromptCues(prompt: string | undefined): PromptCues {
  const text = (prompt ?? '').toLowerCase().replace(/golden hour/g, 'golden-hour');
  const words = text.split(/[^a-z-]+/).filter(Boolean);
  const cues: PromptCues = {
    colours: [],
    monochrome: /\b(black and white|black-and-white|monochrome|greyscale|grayscale)\b/.test(text),
  };
  words.forEach((word, index) => {
    cues.timeOfDay ??= firstMatch(TIMES, word);
    cues.season ??= firstMatch(SEASONS, word);
    cues.setting ??= firstMatch(SETTINGS, word);
    const colour = COLOURS[word];
    // "golden hour" is a time, not a colour; "black and white" is a look, not two colours.
    if (!colour || cues.monochrome) return;
    cues.colours.push({ word, colour, part: partQualified(words, index) });
  });
  // "Snow" as a setting is also a season's light; "winter" alone sets the snow scene.
  if (!cues.setting && cues.season === 'winter') cues.setting = 'snow';
  return cues;
}

/** The scene part named by the first noun after a colour word, within a few words. */
function partQualified(words: string[], colourIndex: number): ScenePart | undefined {
  for (let index = colourIndex + 1; index <= colourIndex + MAX_NOUN_DISTANCE && index < words.length; index += 1) {
    const word = words[index];
    if (COLOURS[word] || word === 'and') continue;
    const part = PART_NOUNS[word];
    if (part) return part;
    // The first other noun-ish word ends the search: "a red bicycle" qualifies the bicycle.
    if (!ADJECTIVES.has(word)) return undefined;
  }
  return undefined;
}

const ADJECTIVES = new Set(['bright', 'dark', 'light', 'pale', 'deep', 'vivid', 'soft', 'old', 'vintage', 'big', 'small', 'tall', 'plain', 'clear', 'calm', 'shiny', 'painted', 'brick', 'stone', 'wooden', 'concrete']);

function firstMatch<T>(table: Array<[T, RegExp]>, word: string): T | undefined {
  return table.find(([, pattern]) => pattern.test(word))?.[0];
}

/** The colour a scene part was given in the prompt, if any. */
export function partColour(cues: PromptCues, part: ScenePart): Rgb | undefined {
  return cues.colours.find((cue) => cue.part === part)?.colour;
}

/** Colours of the subject(s), in order. */
export function subjectColours(cues: PromptCues): Rgb[] {
  return cues.colours.filter((cue) => cue.part === undefined).map((cue) => cue.colour);
}

export function hasCues(cues: PromptCues): boolean {
  return cues.colours.length > 0 || cues.timeOfDay !== undefined || cues.season !== undefined || cues.setting !== undefined || cues.monochrome;
}
