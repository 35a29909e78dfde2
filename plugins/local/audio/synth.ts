/**
 * Minimal additive synthesis into PCM buffers: enveloped oscillators, plucks, drums and filtered
 * noise. Every voice is written additively at its own position, so rendering cost follows the
 * number of notes, not the number of layers times the duration.
 */
import type { SeededRandom } from '../media/seeded-random.js';

export type Waveform = 'sine' | 'triangle' | 'soft-saw';

export interface ToneSpec {
  startSeconds: number;
  durationSeconds: number;
  frequency: number;
  amplitude: number;
  attackSeconds: number;
  /** Exponential-looking release after the note's duration. */
  releaseSeconds: number;
  waveform: Waveform;
  /** Ends the pitch at frequency × glide (1 = steady), for sweeps. */
  glide?: number;
}

export function midiToFrequency(note: number): number {
  return 440 * 2 ** ((note - 69) / 12);
}

export function addTone(target: Float32Array, sampleRate: number, tone: ToneSpec): void {
  const start = Math.round(tone.startSeconds * sampleRate);
  const sustainEnd = tone.durationSeconds * sampleRate;
  const total = Math.ceil((tone.durationSeconds + tone.releaseSeconds) * sampleRate);
  const attack = Math.max(1, tone.attackSeconds * sampleRate);
  const release = Math.max(1, tone.releaseSeconds * sampleRate);
  // Pitch glides geometrically: the per-sample step is multiplied by a constant ratio.
  const glideRatio = (tone.glide ?? 1) ** (1 / total);
  let step = tone.frequency / sampleRate;
  let phase = 0;
  for (let index = 0; index < total; index += 1) {
    const position = start + index;
    step *= glideRatio;
    if (position < 0) continue;
    if (position >= target.length) break;
    phase += step;
    phase -= Math.floor(phase);
    let envelope = index < attack ? index / attack : 1;
    if (index > sustainEnd) envelope *= Math.max(0, 1 - (index - sustainEnd) / release) ** 2;
    target[position] += tone.amplitude * envelope * oscillator(tone.waveform, phase);
  }
}

/** A plucked note: instant attack, exponential decay with time constant `decaySeconds`. */
export function addPluck(
  target: Float32Array,
  sampleRate: number,
  startSeconds: number,
  frequency: number,
  amplitude: number,
  decaySeconds: number,
  waveform: Waveform = 'triangle',
): void {
  const start = Math.round(startSeconds * sampleRate);
  const total = Math.ceil(decaySeconds * 5 * sampleRate);
  const rampIn = Math.round(0.003 * sampleRate);
  const decay = Math.exp(-1 / (decaySeconds * sampleRate));
  const step = frequency / sampleRate;
  let phase = 0;
  let level = amplitude;
  for (let index = 0; index < total; index += 1) {
    const position = start + index;
    if (position >= target.length) break;
    phase += step;
    phase -= Math.floor(phase);
    target[position] += level * (index < rampIn ? index / rampIn : 1) * oscillator(waveform, phase);
    level *= decay;
  }
}

/** A kick drum: a fast downward sine sweep. */
export function addKick(target: Float32Array, sampleRate: number, startSeconds: number, amplitude: number): void {
  addTone(target, sampleRate, {
    startSeconds,
    durationSeconds: 0.02,
    releaseSeconds: 0.22,
    attackSeconds: 0.002,
    frequency: 120,
    glide: 0.35,
    amplitude,
    waveform: 'sine',
  });
}

export interface NoiseSpec {
  startSeconds: number;
  durationSeconds: number;
  amplitude: number;
  /** 0 dark (low-passed) .. 1 bright (high-passed). */
  brightness: number;
  attackSeconds: number;
  /** Exponential decay time constant; Infinity for a steady bed. */
  decaySeconds: number;
  /** Slow amplitude wobble in Hz (wind, waves); 0 for none. */
  wobbleHz?: number;
}

export function addNoise(target: Float32Array, sampleRate: number, random: SeededRandom, noise: NoiseSpec): void {
  const start = Math.round(noise.startSeconds * sampleRate);
  const total = Math.round(noise.durationSeconds * sampleRate);
  const attack = Math.max(1, noise.attackSeconds * sampleRate);
  // One-pole low-pass; the high-passed part is the input minus the low-passed part.
  const coefficient = 0.02 + 0.5 * (1 - noise.brightness) ** 2;
  const wobblePhase = random.range(0, Math.PI * 2);
  const decay = Number.isFinite(noise.decaySeconds) ? Math.exp(-1 / (noise.decaySeconds * sampleRate)) : 1;
  let level = 1;
  let low = 0;
  for (let index = 0; index < total; index += 1) {
    const position = start + index;
    if (position >= target.length) break;
    const white = random.next() * 2 - 1;
    low += (white - low) * (1 - coefficient) * (1 - noise.brightness * 0.9);
    const sample = noise.brightness > 0.5 ? white - low : low * 2.2;
    let envelope = (index < attack ? index / attack : 1) * level;
    level *= decay;
    if (noise.wobbleHz) envelope *= 0.6 + 0.4 * Math.sin(wobblePhase + (2 * Math.PI * noise.wobbleHz * index) / sampleRate);
    if (position >= 0) target[position] += noise.amplitude * envelope * sample;
  }
}

/** Wavetables: a table lookup is several times cheaper than Math.sin per sample. */
const TABLE_SIZE = 4096;
const SINE_TABLE = buildTable((phase) => Math.sin(2 * Math.PI * phase));
// The first three harmonics of a saw: bright enough to carry a pad, no audible aliasing.
const SOFT_SAW_TABLE = buildTable(
  (phase) => (Math.sin(2 * Math.PI * phase) + Math.sin(4 * Math.PI * phase) / 2 + Math.sin(6 * Math.PI * phase) / 3) * 0.6,
);

function buildTable(shape: (phase: number) => number): Float32Array {
  const table = new Float32Array(TABLE_SIZE + 1);
  for (let index = 0; index <= TABLE_SIZE; index += 1) table[index] = shape(index / TABLE_SIZE);
  return table;
}

function lookup(table: Float32Array, phase: number): number {
  const position = phase * TABLE_SIZE;
  const index = position | 0;
  return table[index] + (table[index + 1] - table[index]) * (position - index);
}

function oscillator(waveform: Waveform, phase: number): number {
  switch (waveform) {
    case 'sine':
      return lookup(SINE_TABLE, phase);
    case 'triangle':
      return 1 - 4 * Math.abs(phase - 0.5);
    case 'soft-saw':
      return lookup(SOFT_SAW_TABLE, phase);
  }
}
