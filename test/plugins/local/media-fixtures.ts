/**
 * Small real media files for the local plugin's tests, made once per run with the same
 * ffmpeg the plugin uses, then "uploaded" into a fake blob store so handlers fetch them by URL.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { runFfmpeg } from '../../../src/kernel/plugin-sdk/index.js';

export interface MediaFixtures {
  dir: string;
  /** 320x240 PNG. */
  imagePng: string;
  /** 240x320 JPEG (portrait). */
  portraitJpeg: string;
  /** 320x240, 2 s, 12 fps H.264 with a 440 Hz AAC tone. */
  videoWithAudio: string;
  /** 320x180, 1.5 s, 12 fps H.264 without audio. */
  silentVideo: string;
  /** 1.5 s MP3 tone. */
  toneMp3: string;
  /** Bytes that are not media at all. */
  notMedia: string;
  cleanup(): Promise<void>;
}

export async function createMediaFixtures(): Promise<MediaFixtures> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagate-fixtures-'));
  const ffmpeg = (args: string[]): Promise<unknown> => runFfmpeg(args, { signal: new AbortController().signal });
  const fixtures: MediaFixtures = {
    dir,
    imagePng: join(dir, 'image.png'),
    portraitJpeg: join(dir, 'portrait.jpg'),
    videoWithAudio: join(dir, 'with-audio.mp4'),
    silentVideo: join(dir, 'silent.mp4'),
    toneMp3: join(dir, 'tone.mp3'),
    notMedia: join(dir, 'not-media.mp4'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
  const gradient = (width: number, height: number): Buffer =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        `<defs><linearGradient id="g"><stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f4a259"/></linearGradient></defs>` +
        `<rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="#e63946"/></svg>`,
    );
  await Promise.all([
    sharp(gradient(320, 240)).png().toFile(fixtures.imagePng),
    sharp(gradient(240, 320)).jpeg().toFile(fixtures.portraitJpeg),
    ffmpeg([
      '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=12:duration=2',
      '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', fixtures.videoWithAudio,
    ]),
    ffmpeg([
      '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=12:duration=1.5',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', fixtures.silentVideo,
    ]),
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=330:duration=1.5', '-c:a', 'libmp3lame', fixtures.toneMp3]),
    writeFile(fixtures.notMedia, 'this is not a video'),
  ]);
  return fixtures;
}
