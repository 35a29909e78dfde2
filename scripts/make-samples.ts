/**
 * Writes the sample media the gateway publishes at `{public_url}/samples/<name>` (and the manifests' examples use)
 * into `samples/`, with `samples/catalogue.json`: `npx tsx scripts/make-samples.ts`.
 *
 * The files are committed rather than rendered at each start: every clone then serves byte-identical samples (so
 * an example's price and the character id derived from a sample never vary with the ffmpeg build a machine has),
 * and a start does not wait for renders. Speech is the local plugin's espeak-ng voice; pictures are SVG drawings
 * rasterised by sharp; ffmpeg (the SDK's guarded runner) encodes.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { encodeWav, normalise, type PcmAudio } from '../plugins/local/audio/pcm.js';
import { synthesizeSpeech } from '../plugins/local/speech/espeak-synthesizer.js';
import { probeMedia, runFfmpeg } from '../src/kernel/plugin-sdk/index.js';
import type { SampleEntry } from '../src/kernel/blobs/sample-media.js';

const SAMPLES_DIR = new URL('../samples/', import.meta.url).pathname;
const FPS = 24;
const SIGNAL = new AbortController().signal;
/** Small files: flat drawings compress well, and a sample is an input, not a showcase. */
const H264 = ['-c:v', 'libx264', '-preset', 'slow', '-crf', '30', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];
const VOICE = { voice: 'en-us+m3', wordsPerMinute: 165, pitch: 50 };

const PRESENTER_WORDS = 'Hello, and welcome to mediagate. This is a sample clip.';
const VOICE_WORDS = 'This is a sample voice for lip sync.';

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'mediagate-samples-'));
  try {
    const entries: SampleEntry[] = [
      await catalogueEntry('mug.png', 'A red ceramic mug on a plain background (512×512 PNG): a source for image edits, camera moves and 3D models.', await writeMug()),
      await catalogueEntry('voice.mp3', 'A man\'s voice saying one sentence (espeak-ng, mono MP3).', await writeVoice(scratch), VOICE_WORDS),
      await catalogueEntry('speech.mp4', 'A presenter speaking to the camera (640×360 H.264 + AAC): a video with speech for subtitles, upscaling and restyling.', await writePresenter(scratch), PRESENTER_WORDS),
      await catalogueEntry('character.mp4', 'A person waving at the camera, full figure, no audio (360×640 H.264): a character source and a face for lip sync.', await writeCharacter(scratch)),
    ];
    await writeFile(join(SAMPLES_DIR, 'catalogue.json'), JSON.stringify({ samples: entries }, null, 2) + '\n');
    for (const entry of entries) console.log(`${entry.name}\t${entry.bytes} bytes\tsha256 ${entry.sha256}`);
    // The local plugin names a character after its source's digest, and the manifests' examples name that character.
    console.log('If character.mp4 changed, update the character id in the partner2.video.generate_with_characters examples (test/e2e/examples.test.ts checks it).');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function catalogueEntry(name: string, description: string, path: string, transcript?: string): Promise<SampleEntry> {
  const bytes = await readFile(path);
  const probe = name.endsWith('.png') ? undefined : await probeMedia(path, SIGNAL);
  const image = name.endsWith('.png') ? await sharp(bytes).metadata() : undefined;
  const width = image?.width ?? probe?.video?.width;
  const height = image?.height ?? probe?.video?.height;
  return {
    name,
    description,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(width && height ? { width, height } : {}),
    ...(probe ? { duration_seconds: Math.round(probe.durationSeconds * 100) / 100 } : {}),
    ...(transcript ? { transcript } : {}),
  };
}

async function writeMug(): Promise<string> {
  const path = join(SAMPLES_DIR, 'mug.png');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <defs>
    <linearGradient id="body" x1="0" x2="1"><stop offset="0" stop-color="#8e1b1b"/><stop offset="0.35" stop-color="#d8402f"/><stop offset="0.6" stop-color="#c23224"/><stop offset="1" stop-color="#6d1212"/></linearGradient>
    <radialGradient id="shadow"><stop offset="0" stop-color="#000" stop-opacity="0.28"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="512" height="512" fill="#f3efe8"/>
  <ellipse cx="250" cy="410" rx="165" ry="30" fill="url(#shadow)"/>
  <path d="M352 200 C430 200 430 330 345 335" fill="none" stroke="#a72619" stroke-width="30" stroke-linecap="round"/>
  <path d="M140 150 L140 370 C140 420 360 420 360 370 L360 150 Z" fill="url(#body)"/>
  <ellipse cx="250" cy="150" rx="110" ry="26" fill="#b02a1f"/>
  <ellipse cx="250" cy="153" rx="98" ry="20" fill="#3b2417"/>
  <path d="M165 175 L165 360" stroke="#f7a48f" stroke-opacity="0.55" stroke-width="10" stroke-linecap="round"/>
</svg>`;
  await sharp(Buffer.from(svg)).png({ compressionLevel: 9, adaptiveFiltering: true }).toFile(path);
  return path;
}

async function speak(text: string): Promise<PcmAudio> {
  const speech = await synthesizeSpeech({ text, ...VOICE });
  normalise(speech);
  return speech;
}

async function writeVoice(scratch: string): Promise<string> {
  const wav = join(scratch, 'voice.wav');
  await writeFile(wav, encodeWav(await speak(VOICE_WORDS)));
  const path = join(SAMPLES_DIR, 'voice.mp3');
  await runFfmpeg(['-i', wav, '-map_metadata', '-1', '-c:a', 'libmp3lame', '-b:a', '48k', '-ac', '1', path], { signal: SIGNAL });
  return path;
}

/** The presenter's mouth opens with the loudness of the speech at each frame. */
async function writePresenter(scratch: string): Promise<string> {
  const speech = await speak(PRESENTER_WORDS);
  const wav = join(scratch, 'presenter.wav');
  await writeFile(wav, encodeWav(speech));
  const openness = loudnessPerFrame(speech);
  const frames = join(scratch, 'presenter');
  await renderFrames(frames, openness.length, (frame) =>
    figureSvg({ width: 640, height: 360, cx: 320, headY: 150, scale: 1, time: frame / FPS, mouth: openness[frame], waving: false }),
  );
  const path = join(SAMPLES_DIR, 'speech.mp4');
  await runFfmpeg(
    ['-framerate', String(FPS), '-i', join(frames, 'frame-%04d.png'), '-i', wav, '-map', '0:v', '-map', '1:a', '-map_metadata', '-1', ...H264, '-c:a', 'aac', '-b:a', '48k', '-ac', '1', '-ar', '22050', '-shortest', path],
    { signal: SIGNAL },
  );
  return path;
}

async function writeCharacter(scratch: string): Promise<string> {
  const seconds = 4;
  const frames = join(scratch, 'character');
  await renderFrames(frames, seconds * FPS, (frame) =>
    figureSvg({ width: 360, height: 640, cx: 180, headY: 150, scale: 1.1, time: frame / FPS, mouth: 0.15, waving: true }),
  );
  const path = join(SAMPLES_DIR, 'character.mp4');
  await runFfmpeg(['-framerate', String(FPS), '-i', join(frames, 'frame-%04d.png'), '-map_metadata', '-1', ...H264, '-an', path], { signal: SIGNAL });
  return path;
}

function loudnessPerFrame(speech: PcmAudio): number[] {
  const samples = speech.channels[0];
  const perFrame = speech.sampleRate / FPS;
  const count = Math.ceil(samples.length / perFrame);
  return Array.from({ length: count }, (_, frame) => {
    let sum = 0;
    const start = Math.floor(frame * perFrame);
    const end = Math.min(samples.length, Math.floor((frame + 1) * perFrame));
    for (let index = start; index < end; index += 1) sum += samples[index] * samples[index];
    return Math.min(1, Math.sqrt(sum / Math.max(1, end - start)) * 4);
  });
}

async function renderFrames(folder: string, count: number, draw: (frame: number) => string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (let frame = 0; frame < count; frame += 1) {
    await sharp(Buffer.from(draw(frame))).png({ compressionLevel: 1 }).toFile(join(folder, `frame-${String(frame + 1).padStart(4, '0')}.png`));
  }
}

interface Figure {
  width: number;
  height: number;
  /** Centre line and head centre, in pixels. */
  cx: number;
  headY: number;
  scale: number;
  time: number;
  /** 0 closed .. 1 wide open. */
  mouth: number;
  waving: boolean;
}

/** A cartoon person: hair, blinking eyes, a mouth, arms (one may wave) and legs; drawn around (cx, headY). */
function figureSvg(figure: Figure): string {
  const { width, height, cx, headY, scale, time, mouth, waving } = figure;
  const sway = Math.sin(time * Math.PI * 0.8) * 4;
  const blink = time % 2.6 > 2.45 ? 0.15 : 1;
  const rightArm = waving ? -150 + Math.sin(time * Math.PI * 3) * 22 : -8;
  const mouthHeight = 2 + mouth * 14;
  const arm = (side: 1 | -1, degrees: number) =>
    `<g transform="rotate(${degrees.toFixed(2)} ${side * 81} 96)"><rect x="${side * 81 - 11}" y="88" width="22" height="130" rx="11" fill="#2f7f7a"/><circle cx="${side * 81}" cy="222" r="13" fill="#e9b98f"/></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#cfe3f2"/><stop offset="1" stop-color="#8fb3cf"/></linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <g transform="translate(${(cx + sway).toFixed(2)} ${headY}) scale(${scale})">
    <rect x="-58" y="250" width="52" height="220" fill="#34405a"/>
    <rect x="6" y="250" width="52" height="220" fill="#34405a"/>
    ${arm(-1, 8)}
    ${arm(1, rightArm)}
    <path d="M-72 92 C-72 68 -40 58 0 58 C40 58 72 68 72 92 L64 262 L-64 262 Z" fill="#2f7f7a"/>
    <rect x="-13" y="40" width="26" height="24" fill="#e0ac80"/>
    <ellipse cx="0" cy="-8" rx="51" ry="58" fill="#4a2c1d"/>
    <ellipse cx="0" cy="4" rx="44" ry="52" fill="#e9b98f"/>
    <path d="M-46 -8 C-46 -62 46 -62 46 -8 C26 -36 -6 -40 -46 -8 Z" fill="#4a2c1d"/>
    <ellipse cx="-17" cy="2" rx="6" ry="${(7 * blink).toFixed(2)}" fill="#2b2b2b"/>
    <ellipse cx="17" cy="2" rx="6" ry="${(7 * blink).toFixed(2)}" fill="#2b2b2b"/>
    <path d="M-26 -12 Q-17 -17 -8 -12 M8 -12 Q17 -17 26 -12" stroke="#4a2c1d" stroke-width="3" fill="none"/>
    <path d="M0 8 L-4 20 L3 20" stroke="#c98f66" stroke-width="2" fill="none"/>
    <ellipse cx="0" cy="34" rx="12" ry="${mouthHeight.toFixed(2)}" fill="#8a2f2f"/>
  </g>
</svg>`;
}

await main();
