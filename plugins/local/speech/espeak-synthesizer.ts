/**
 * Speech synthesis with espeak-ng compiled to WASM (the `espeak-ng` package): the real espeak-ng
 * command line runs inside an Emscripten module with an in-memory file system; we write the text to
 * a file there, run `espeak-ng -w out.wav -f in.txt` and read the WAV back. Each run gets a fresh
 * module instance (the CLI's main() runs once per instance); the compiled WebAssembly module is
 * cached so only instantiation (~0.3 s, mostly the embedded voice data) is paid per run.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ESpeakNg from 'espeak-ng';
import { concatPcm, decodeWav, type PcmAudio } from '../audio/pcm.js';

const require = createRequire(import.meta.url);
const WASM_PATH = join(dirname(require.resolve('espeak-ng')), 'espeak-ng.wasm');

/**
 * Text per run. The module has a fixed 32 MB heap that holds the output WAV (about 44 kB per second
 * of speech), so long narrations are spoken in sentence-aligned chunks and joined.
 */
const MAX_CHUNK_CHARACTERS = 1500;

export interface SpeechRequest {
  text: string;
  /** espeak-ng voice, e.g. `fr-fr+f3`. */
  voice: string;
  wordsPerMinute: number;
  /** 0..99, 50 is the voice's normal pitch. */
  pitch: number;
}

export class UnknownVoiceError extends Error {
  override readonly name = 'UnknownVoiceError';
}

let compiled: Promise<WebAssembly.Module> | undefined;

export async function synthesizeSpeech(request: SpeechRequest): Promise<PcmAudio> {
  const parts: PcmAudio[] = [];
  for (const chunk of chunkText(request.text)) parts.push(await synthesizeChunk({ ...request, text: chunk }));
  return concatPcm(parts);
}

async function synthesizeChunk(request: SpeechRequest): Promise<PcmAudio> {
  compiled ??= readFile(WASM_PATH).then((bytes) => WebAssembly.compile(bytes));
  const wasmModule = await compiled;
  const errors: string[] = [];
  let exitStatus = 0;
  const instance = await ESpeakNg({
    arguments: [
      '-v', request.voice,
      '-s', String(Math.round(request.wordsPerMinute)),
      '-p', String(Math.round(request.pitch)),
      '-w', '/out.wav',
      '-f', '/in.txt',
    ],
    preRun: [(module) => module.FS.writeFile('/in.txt', request.text)],
    instantiateWasm: (imports, receiveInstance) => {
      const wasmInstance = new WebAssembly.Instance(wasmModule, imports);
      receiveInstance(wasmInstance, wasmModule);
      return wasmInstance.exports;
    },
    print: () => undefined,
    printErr: (line) => errors.push(line),
    quit: (status, toThrow) => {
      exitStatus = status;
      throw toThrow;
    },
  });
  const message = errors.find((line) => !line.startsWith('program exited')) ?? '';
  if (/voice does not exist/i.test(message)) throw new UnknownVoiceError(`espeak-ng has no voice ${request.voice}`);
  let wav: Uint8Array;
  try {
    wav = instance.FS.readFile('/out.wav');
  } catch {
    throw new Error(`espeak-ng produced no audio (exit ${exitStatus}): ${message || 'no message'}`);
  }
  return decodeWav(wav);
}

/** Sentence-aligned chunks of at most MAX_CHUNK_CHARACTERS (longer sentences are split on spaces). */
function chunkText(text: string): string[] {
  const sentences = text.match(/[^.!?。！？\n]+[.!?。！？\n]*/gu) ?? [text];
  const chunks: string[] = [];
  let current = '';
  for (const sentence of sentences.flatMap((part) => splitLong(part))) {
    if (current.length + sentence.length > MAX_CHUNK_CHARACTERS && current.trim()) {
      chunks.push(current.trim());
      current = '';
    }
    current += sentence;
  }
  if (current.trim()) chunks.push(current.trim());
  return chunks.length > 0 ? chunks : [text];
}

function splitLong(sentence: string): string[] {
  if (sentence.length <= MAX_CHUNK_CHARACTERS) return [sentence];
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_CHUNK_CHARACTERS) {
    const space = rest.lastIndexOf(' ', MAX_CHUNK_CHARACTERS);
    const cut = space > MAX_CHUNK_CHARACTERS / 2 ? space : MAX_CHUNK_CHARACTERS;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return [...pieces, rest];
}
