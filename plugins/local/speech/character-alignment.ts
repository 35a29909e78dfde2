/**
 * Character timestamps in the vendor's shape. espeak-ng does not report timings through its CLI,
 * so they are estimated: characters share the span between the first and last audible sample,
 * weighted so punctuation (pauses) takes longer than letters and spaces less.
 */
import type { PcmAudio } from '../audio/pcm.js';

export interface CharacterAlignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

const SILENCE_THRESHOLD = 0.01;

export function estimateAlignment(text: string, audio: PcmAudio): CharacterAlignment {
  const characters = [...text];
  const [samples] = audio.channels;
  const { start, end } = audibleSpan(samples);
  const from = start / audio.sampleRate;
  const to = Math.max(from, end / audio.sampleRate);
  const weights = characters.map(weightOf);
  const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  const starts: number[] = [];
  const ends: number[] = [];
  let elapsed = 0;
  for (const weight of weights) {
    starts.push(round(from + ((to - from) * elapsed) / total));
    elapsed += weight;
    ends.push(round(from + ((to - from) * elapsed) / total));
  }
  return { characters, character_start_times_seconds: starts, character_end_times_seconds: ends };
}

function audibleSpan(samples: Float32Array): { start: number; end: number } {
  let start = 0;
  while (start < samples.length && Math.abs(samples[start]) < SILENCE_THRESHOLD) start += 1;
  let end = samples.length - 1;
  while (end > start && Math.abs(samples[end]) < SILENCE_THRESHOLD) end -= 1;
  return start >= samples.length ? { start: 0, end: samples.length } : { start, end: end + 1 };
}

function weightOf(character: string): number {
  if (/\s/u.test(character)) return 0.5;
  if (/[.!?。！？]/u.test(character)) return 3;
  if (/[,;:、，；：]/u.test(character)) return 2;
  return 1;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
