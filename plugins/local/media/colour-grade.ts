/**
 * A colour grade read from an edit prompt's cues ("make it night", "golden hour", "autumn", "make it
 * red", "black and white"): per channel `out = in × gain + offset` (0..255) and a saturation factor.
 * The same grade is applied to images (sharp's linear + modulate) and to clips (ffmpeg's hue + lutrgb), so
 * an edit of a picture and of a video look alike. A prompt without cues has no grade: the local renderer
 * does not invent a change the prompt did not ask for.
 */
import type { Rgb } from './colour.js';
import { readPromptCues, type PromptCues, type Season, type TimeOfDay } from './prompt-cues.js';

export type Channels = [number, number, number];

export interface ColourGrade {
  gain: Channels;
  offset: Channels;
  saturation: number;
}

const IDENTITY: ColourGrade = { gain: [1, 1, 1], offset: [0, 0, 0], saturation: 1 };

const TIME_GRADES: Record<TimeOfDay, ColourGrade> = {
  // Dark and blue, as a day-for-night grade does.
  night: { gain: [0.42, 0.48, 0.7], offset: [0, 4, 18], saturation: 0.75 },
  sunset: { gain: [1, 0.82, 0.62], offset: [34, 12, 0], saturation: 1.1 },
  dawn: { gain: [0.98, 0.9, 0.88], offset: [20, 12, 16], saturation: 0.95 },
  day: { gain: [1.05, 1.05, 1.05], offset: [6, 6, 6], saturation: 1.05 },
};

const SEASON_GRADES: Record<Season, ColourGrade> = {
  autumn: { gain: [1.05, 0.88, 0.68], offset: [16, 6, 0], saturation: 1.1 },
  winter: { gain: [0.88, 0.94, 1], offset: [22, 28, 38], saturation: 0.6 },
  spring: { gain: [1, 1.05, 0.95], offset: [6, 12, 4], saturation: 1.1 },
  summer: { gain: [1.04, 1.02, 0.95], offset: [8, 6, 0], saturation: 1.2 },
};

/** How far a colour word pulls every pixel towards it. */
const TINT_AMOUNT = 0.3;

export function gradeFromPrompt(prompt: string | undefined): ColourGrade | undefined {
  return gradeFromCues(readPromptCues(prompt));
}

export function gradeFromCues(cues: PromptCues): ColourGrade | undefined {
  const steps: ColourGrade[] = [];
  if (cues.timeOfDay) steps.push(TIME_GRADES[cues.timeOfDay]);
  if (cues.season) steps.push(SEASON_GRADES[cues.season]);
  else if (cues.setting === 'snow') steps.push(SEASON_GRADES.winter);
  const [tint] = cues.colours;
  if (tint) steps.push(tintTowards(tint.colour, TINT_AMOUNT));
  if (cues.monochrome) steps.push({ ...IDENTITY, saturation: 0 });
  return steps.length === 0 ? undefined : steps.reduce(compose, IDENTITY);
}

function tintTowards(colour: Rgb, amount: number): ColourGrade {
  return { gain: [1 - amount, 1 - amount, 1 - amount], offset: [colour.r * amount, colour.g * amount, colour.b * amount], saturation: 1 };
}

/** `second` after `first`: in × g1 × g2 + o1 × g2 + o2. Saturation is applied before the channel maps. */
function compose(first: ColourGrade, second: ColourGrade): ColourGrade {
  return {
    gain: first.gain.map((gain, channel) => gain * second.gain[channel]) as Channels,
    offset: first.offset.map((offset, channel) => offset * second.gain[channel] + second.offset[channel]) as Channels,
    saturation: first.saturation * second.saturation,
  };
}

/** ffmpeg filters for a clip: saturation (hue), then the channel maps (lutrgb, clipped by ffmpeg). */
export function gradeFilters(grade: ColourGrade): string[] {
  const channel = (index: number): string => `val*${num(grade.gain[index])}+${num(grade.offset[index])}`;
  return [`hue=s=${num(grade.saturation)}`, `lutrgb=r='${channel(0)}':g='${channel(1)}':b='${channel(2)}'`];
}

function num(value: number): string {
  return Number(value.toFixed(4)).toString();
}
