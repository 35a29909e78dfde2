/**
 * Sound effects from a text prompt: the prompt's words (in a few languages) pick a recipe of
 * filtered noise, tones and percussive hits; the seed varies its details. Loops are rendered
 * longer and cross-faded into themselves so the end flows into the start.
 */
import { createRandom, type SeededRandom } from '../media/seeded-random.js';
import { createPcm, fadeEdges, foldIntoLoop, normalise, type PcmAudio } from './pcm.js';
import { addNoise, addPluck, addTone, midiToFrequency, type NoiseSpec } from './synth.js';

export interface SoundEffectRequest {
  prompt: string;
  seed: number;
  durationSeconds: number;
  loop: boolean;
}

const SAMPLE_RATE = 44100;

type Recipe = (channel: Float32Array, random: SeededRandom, seconds: number) => void;

const RECIPES: Array<{ pattern: RegExp; recipe: Recipe }> = [
  { pattern: /rain|drizzle|storm|pluie|lluvia|regen|pioggia|chuva|дожд|雨|비/i, recipe: rain },
  { pattern: /wind|breeze|gust|vent|viento|vento|ветер|風|风|바람/i, recipe: wind },
  { pattern: /wave|ocean|sea|surf|\bmer\b|\bmar\b|meer|море|波|海|파도/i, recipe: waves },
  { pattern: /explo|boom|blast|thunder|impact|crash|tonnerre|trueno|donner|взрыв|爆|폭발/i, recipe: explosion },
  { pattern: /whoosh|swoosh|swish|swipe|woosh|transition|fly.?by/i, recipe: whoosh },
  { pattern: /beep|bip|alarm|alert|ding|bell|chime|notification|ping|click|\bui\b/i, recipe: chime },
  { pattern: /step|footstep|walk|knock|\bpas\b|pasos|schritt|passi|шаг|足音|발소리|\btap/i, recipe: footsteps },
  { pattern: /engine|motor|hum|drone|machine|\bcar\b|moteur|двигат|エンジン|엔진|buzz/i, recipe: engine },
  { pattern: /fire|crackl|campfire|\bfeu\b|fuego|feuer|fuoco|огонь|火|불/i, recipe: fire },
];

export function synthesizeSoundEffect(request: SoundEffectRequest): PcmAudio {
  const random = createRandom(request.seed);
  const recipe = RECIPES.find(({ pattern }) => pattern.test(request.prompt))?.recipe ?? ambience;
  const crossfade = request.loop ? Math.min(0.5, request.durationSeconds / 4) : 0;
  const rendered = request.durationSeconds + crossfade;
  const audio = createPcm(SAMPLE_RATE, 2, rendered);
  // Each ear gets its own random stream so the result is wide, not a centred mono copy.
  audio.channels.forEach((channel, index) => recipe(channel, createRandom(request.seed + index * 7919 + random.int(0, 1000)), rendered));
  const result = request.loop ? foldIntoLoop(audio, request.durationSeconds, crossfade) : audio;
  normalise(result, 0.8);
  if (!request.loop) fadeEdges(result, 0.01, Math.min(0.3, request.durationSeconds * 0.1));
  return result;
}

function rain(channel: Float32Array, random: SeededRandom, seconds: number): void {
  addNoise(channel, SAMPLE_RATE, random, bed(seconds, 0.25, 0.75));
  for (let drop = 0; drop < seconds * 40; drop += 1) {
    addNoise(channel, SAMPLE_RATE, random, {
      startSeconds: random.range(0, seconds),
      durationSeconds: 0.03,
      amplitude: random.range(0.1, 0.5),
      brightness: 0.9,
      attackSeconds: 0.001,
      decaySeconds: 0.006,
    });
  }
}

function wind(channel: Float32Array, random: SeededRandom, seconds: number): void {
  addNoise(channel, SAMPLE_RATE, random, { ...bed(seconds, 0.6, 0.12), wobbleHz: random.range(0.1, 0.3) });
  addNoise(channel, SAMPLE_RATE, random, { ...bed(seconds, 0.25, 0.35), wobbleHz: random.range(0.05, 0.12) });
}

function waves(channel: Float32Array, random: SeededRandom, seconds: number): void {
  addNoise(channel, SAMPLE_RATE, random, { ...bed(seconds, 0.7, 0.3), wobbleHz: random.range(0.08, 0.15) });
}

function explosion(channel: Float32Array, random: SeededRandom, seconds: number): void {
  const hits = Math.max(1, Math.floor(seconds / 3));
  for (let hit = 0; hit < hits; hit += 1) {
    const start = hit === 0 ? 0.03 : random.range(0, seconds - 0.5);
    addNoise(channel, SAMPLE_RATE, random, {
      startSeconds: start,
      durationSeconds: Math.min(seconds, 2.5),
      amplitude: 0.9,
      brightness: 0.15,
      attackSeconds: 0.004,
      decaySeconds: random.range(0.35, 0.8),
    });
    addTone(channel, SAMPLE_RATE, {
      startSeconds: start,
      durationSeconds: 0.05,
      releaseSeconds: 1.2,
      attackSeconds: 0.002,
      frequency: random.range(55, 80),
      glide: 0.4,
      amplitude: 0.8,
      waveform: 'sine',
    });
  }
}

function whoosh(channel: Float32Array, random: SeededRandom, seconds: number): void {
  const length = Math.min(seconds, random.range(0.8, 1.6));
  const start = Math.max(0, (seconds - length) / 2);
  addNoise(channel, SAMPLE_RATE, random, {
    startSeconds: start,
    durationSeconds: length,
    amplitude: 0.7,
    brightness: 0.55,
    attackSeconds: length * 0.45,
    decaySeconds: length * 0.2,
  });
}

function chime(channel: Float32Array, random: SeededRandom, seconds: number): void {
  const root = random.int(72, 84);
  const interval = random.range(0.4, 0.9);
  for (let time = 0.02, index = 0; time < seconds; time += interval, index += 1) {
    const note = root + [0, 4, 7, 12][index % 4];
    addPluck(channel, SAMPLE_RATE, time, midiToFrequency(note), 0.5, 0.35, 'sine');
    addPluck(channel, SAMPLE_RATE, time, midiToFrequency(note) * 2.01, 0.12, 0.2, 'sine');
  }
}

function footsteps(channel: Float32Array, random: SeededRandom, seconds: number): void {
  const pace = random.range(0.45, 0.6);
  for (let time = 0.05; time < seconds; time += pace + random.range(-0.03, 0.03)) {
    addNoise(channel, SAMPLE_RATE, random, {
      startSeconds: time,
      durationSeconds: 0.15,
      amplitude: 0.8,
      brightness: 0.2,
      attackSeconds: 0.002,
      decaySeconds: 0.035,
    });
    addTone(channel, SAMPLE_RATE, {
      startSeconds: time,
      durationSeconds: 0.01,
      releaseSeconds: 0.08,
      attackSeconds: 0.001,
      frequency: random.range(80, 110),
      amplitude: 0.4,
      waveform: 'sine',
    });
  }
}

function engine(channel: Float32Array, random: SeededRandom, seconds: number): void {
  const base = random.range(45, 70);
  addTone(channel, SAMPLE_RATE, {
    startSeconds: 0,
    durationSeconds: seconds,
    releaseSeconds: 0.1,
    attackSeconds: 0.3,
    frequency: base,
    amplitude: 0.5,
    waveform: 'soft-saw',
  });
  addTone(channel, SAMPLE_RATE, {
    startSeconds: 0,
    durationSeconds: seconds,
    releaseSeconds: 0.1,
    attackSeconds: 0.3,
    frequency: base * 2.02,
    amplitude: 0.2,
    waveform: 'triangle',
  });
  addNoise(channel, SAMPLE_RATE, random, { ...bed(seconds, 0.2, 0.2), wobbleHz: random.range(4, 9) });
}

function fire(channel: Float32Array, random: SeededRandom, seconds: number): void {
  addNoise(channel, SAMPLE_RATE, random, { ...bed(seconds, 0.35, 0.1), wobbleHz: random.range(0.3, 0.8) });
  for (let crackle = 0; crackle < seconds * 9; crackle += 1) {
    addNoise(channel, SAMPLE_RATE, random, {
      startSeconds: random.range(0, seconds),
      durationSeconds: 0.02,
      amplitude: random.range(0.2, 0.9),
      brightness: 0.95,
      attackSeconds: 0.0005,
      decaySeconds: 0.004,
    });
  }
}

/** Unrecognised prompts: a tinted noise bed with a few seeded tonal gestures. */
function ambience(channel: Float32Array, random: SeededRandom, seconds: number): void {
  addNoise(channel, SAMPLE_RATE, random, { ...bed(seconds, 0.3, random.range(0.1, 0.8)), wobbleHz: random.range(0.1, 0.5) });
  const gestures = Math.max(1, Math.round(seconds / 1.5));
  for (let gesture = 0; gesture < gestures; gesture += 1) {
    addTone(channel, SAMPLE_RATE, {
      startSeconds: random.range(0, Math.max(0, seconds - 0.6)),
      durationSeconds: random.range(0.15, 0.5),
      releaseSeconds: 0.3,
      attackSeconds: 0.02,
      frequency: random.range(200, 1200),
      glide: random.range(0.5, 2),
      amplitude: 0.35,
      waveform: 'sine',
    });
  }
}

function bed(seconds: number, amplitude: number, brightness: number): NoiseSpec {
  return { startSeconds: 0, durationSeconds: seconds, amplitude, brightness, attackSeconds: 0.05, decaySeconds: Infinity };
}
