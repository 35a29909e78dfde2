/**
 * A small deterministic composer: a four-chord progression in a seeded key and tempo, with pads,
 * bass, an arpeggio and (unless the mood is calm) drums. The tempo is nudged so a whole number of
 * bars fills the requested duration exactly, which makes loops seamless and endings land on a bar.
 */
import { createRandom, type SeededRandom } from '../media/seeded-random.js';
import { createPcm, fadeEdges, normalise, wrapTail, type PcmAudio } from './pcm.js';
import { addKick, addNoise, addPluck, addTone, midiToFrequency } from './synth.js';

export type MusicMood = 'bright' | 'dark' | 'calm' | 'energetic';

export interface MusicRequest {
  seed: number;
  durationSeconds: number;
  mood: MusicMood;
  /** Render a seamless loop (no fades, the tail wraps onto the start). */
  loop: boolean;
  /** No drums, long pads. */
  ambience: boolean;
}

const SAMPLE_RATE = 44100;
const BEATS_PER_BAR = 4;
const RELEASE_TAIL_SECONDS = 2;

/** Scale degrees (semitones from the key's root) of each chord's root, and its quality. */
type Chord = { root: number; minor: boolean };
const MAJOR_PROGRESSIONS: Chord[][] = [
  [{ root: 0, minor: false }, { root: 7, minor: false }, { root: 9, minor: true }, { root: 5, minor: false }],
  [{ root: 0, minor: false }, { root: 9, minor: true }, { root: 5, minor: false }, { root: 7, minor: false }],
  [{ root: 9, minor: true }, { root: 5, minor: false }, { root: 0, minor: false }, { root: 7, minor: false }],
  [{ root: 0, minor: false }, { root: 5, minor: false }, { root: 7, minor: false }, { root: 5, minor: false }],
];
const MINOR_PROGRESSIONS: Chord[][] = [
  [{ root: 0, minor: true }, { root: 8, minor: false }, { root: 3, minor: false }, { root: 10, minor: false }],
  [{ root: 0, minor: true }, { root: 5, minor: true }, { root: 10, minor: false }, { root: 3, minor: false }],
  [{ root: 0, minor: true }, { root: 10, minor: false }, { root: 8, minor: false }, { root: 10, minor: false }],
];

export function composeMusic(request: MusicRequest): PcmAudio {
  const random = createRandom(request.seed);
  const tempo = pickTempo(request.mood, random);
  const nominalBar = (60 / tempo) * BEATS_PER_BAR;
  const bars = Math.max(1, Math.round(request.durationSeconds / nominalBar));
  const bar = request.durationSeconds / bars;
  const beat = bar / BEATS_PER_BAR;
  const key = random.int(45, 56);
  const progression = random.pick(request.mood === 'dark' ? MINOR_PROGRESSIONS : MAJOR_PROGRESSIONS);
  const arpPattern = [0, 1, 2, 1, 2, 0, 1, 2].map((step) => (random.next() < 0.2 ? (step + 1) % 3 : step));
  const drums = !request.ambience && request.mood !== 'calm';

  const audio = createPcm(SAMPLE_RATE, 2, request.durationSeconds + RELEASE_TAIL_SECONDS);
  const [left, right] = audio.channels;
  for (let barIndex = 0; barIndex < bars; barIndex += 1) {
    const start = barIndex * bar;
    const chord = progression[barIndex % progression.length];
    const notes = triad(key + 12 + chord.root, chord.minor);
    for (const note of notes) {
      const frequency = midiToFrequency(note);
      const pad = {
        startSeconds: start,
        durationSeconds: bar,
        attackSeconds: request.ambience ? bar * 0.4 : 0.25,
        releaseSeconds: request.ambience ? 1.8 : 0.7,
        amplitude: 0.06,
        waveform: 'soft-saw' as const,
      };
      // A slight detune between the ears widens the pad.
      addTone(left, SAMPLE_RATE, { ...pad, frequency: frequency * 0.998 });
      addTone(right, SAMPLE_RATE, { ...pad, frequency: frequency * 1.002 });
    }
    const bassFrequency = midiToFrequency(key - 12 + chord.root);
    const bassBeats = request.mood === 'energetic' ? [0, 1.5, 2, 3.5] : request.ambience ? [0] : [0, 2];
    for (const bassBeat of bassBeats) {
      for (const channel of audio.channels) addPluck(channel, SAMPLE_RATE, start + bassBeat * beat, bassFrequency, 0.3, 0.3, 'sine');
    }
    const stepsPerBar = request.mood === 'calm' || request.ambience ? 4 : 8;
    for (let step = 0; step < stepsPerBar; step += 1) {
      const note = notes[arpPattern[step % arpPattern.length]] + 12;
      const time = start + (step * bar) / stepsPerBar;
      const pan = step % 2 === 0 ? 0.7 : 0.3;
      addPluck(left, SAMPLE_RATE, time, midiToFrequency(note), 0.1 * (1 - pan), 0.16);
      addPluck(right, SAMPLE_RATE, time, midiToFrequency(note), 0.1 * pan, 0.16);
    }
    if (drums) addDrumBar(audio, start, beat, request.mood === 'energetic', random);
  }

  if (request.loop) {
    const looped = wrapTail(audio, request.durationSeconds);
    normalise(looped);
    return looped;
  }
  const trimmed: PcmAudio = {
    sampleRate: SAMPLE_RATE,
    channels: audio.channels.map((channel) => channel.slice(0, Math.round(request.durationSeconds * SAMPLE_RATE))),
  };
  normalise(trimmed);
  fadeEdges(trimmed, 0.02, Math.min(2, request.durationSeconds * 0.15));
  return trimmed;
}

function addDrumBar(audio: PcmAudio, start: number, beat: number, driving: boolean, random: SeededRandom): void {
  for (let beatIndex = 0; beatIndex < BEATS_PER_BAR; beatIndex += 1) {
    const time = start + beatIndex * beat;
    const kick = driving || beatIndex % 2 === 0;
    for (const channel of audio.channels) {
      if (kick) addKick(channel, audio.sampleRate, time, 0.45);
      if (beatIndex % 2 === 1) {
        addNoise(channel, audio.sampleRate, random, {
          startSeconds: time,
          durationSeconds: 0.25,
          amplitude: 0.12,
          brightness: 0.6,
          attackSeconds: 0.002,
          decaySeconds: 0.06,
        });
      }
      addNoise(channel, audio.sampleRate, random, {
        startSeconds: time + beat / 2,
        durationSeconds: 0.08,
        amplitude: 0.05,
        brightness: 0.95,
        attackSeconds: 0.001,
        decaySeconds: 0.02,
      });
    }
  }
}

function pickTempo(mood: MusicMood, random: SeededRandom): number {
  switch (mood) {
    case 'calm':
      return random.range(68, 86);
    case 'energetic':
      return random.range(118, 132);
    default:
      return random.range(86, 112);
  }
}

function triad(root: number, minor: boolean): number[] {
  return [root, root + (minor ? 3 : 4), root + 7];
}

const MOOD_WORDS: Array<{ mood: MusicMood; pattern: RegExp }> = [
  { mood: 'dark', pattern: /sad|dark|melanchol|gloom|minor|noir|triste|sombre|traurig|dunkel|oscur|cupo|грус|暗|悲|슬픈/i },
  { mood: 'energetic', pattern: /energ|upbeat|dance|rock|epic|fast|edm|techno|party|hype|rapide|schnell|rápid|veloce/i },
  { mood: 'calm', pattern: /calm|ambient|chill|relax|sleep|lo-?fi|soft|gentle|piano|calme|doux|ruhig|tranquil|suave|calma/i },
];

/** The mood named in the client's words, in a few languages; bright when nothing matches. */
export function moodOf(text: string): MusicMood {
  return MOOD_WORDS.find(({ pattern }) => pattern.test(text))?.mood ?? 'bright';
}
