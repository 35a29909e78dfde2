/**
 * The CPU-heavy work of the local plugin, as jobs a worker thread can run: each takes a structured-clone
 * friendly request and returns typed arrays, so nothing but data crosses the thread boundary.
 */
import { gzipSync } from 'node:zlib';
import { composeMusic, type MusicRequest } from '../audio/music-composer.js';
import { encodeWav, type PcmAudio } from '../audio/pcm.js';
import { synthesizeSoundEffect, type SoundEffectRequest } from '../audio/sound-effects.js';
import { synthesizeSpeech, type SpeechRequest } from '../speech/espeak-synthesizer.js';

export interface SynthesisJobs {
  music: { request: MusicRequest; result: PcmAudio };
  soundEffect: { request: SoundEffectRequest; result: PcmAudio };
  speech: { request: SpeechRequest; result: PcmAudio };
  gzip: { request: Uint8Array; result: Uint8Array };
  wav: { request: PcmAudio; result: Uint8Array };
}

export type SynthesisJobName = keyof SynthesisJobs;

export const synthesisJobs: { [Name in SynthesisJobName]: (request: SynthesisJobs[Name]['request']) => Promise<SynthesisJobs[Name]['result']> } = {
  music: async (request) => composeMusic(request),
  soundEffect: async (request) => synthesizeSoundEffect(request),
  speech: (request) => synthesizeSpeech(request),
  gzip: async (request) => new Uint8Array(gzipSync(request)),
  wav: async (request) => new Uint8Array(encodeWav(request)),
};
