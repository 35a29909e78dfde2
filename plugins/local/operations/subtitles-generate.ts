/**
 * subtitles.generate: burns styled captions into the video with libass. There is no speech
 * recognition offline, so the captions are deterministic cues derived from the file name, one every
 * two seconds and numbered; their styling follows subtitle_settings exactly.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readNumber, readObject, readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { buildAssScript, type SubtitleCue, type SubtitleStyle } from '../media/ass-subtitles.js';
import { AAC_ARGS, H264_ARGS } from '../media/encoding-args.js';
import { filterValue, runFfmpeg } from '../media/ffmpeg.js';
import { FONT_DIR } from '../media/font.js';
import { fetchInputToFile, invalidInput, requireVideo } from '../media/input-media.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

const CUE_SECONDS = 2;

export const subtitlesGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const videoUrl = readString(input, 'video_url');
    if (!videoUrl) throw invalidInput('video_url is required');
    const source = await fetchInputToFile(ctx, videoUrl, 'video_url');
    const decoded = await requireVideo(ctx, source);
    const duration = decoded.durationSeconds || readNumber(input, 'duration') || CUE_SECONDS;
    const size = { width: decoded.video.width, height: decoded.video.height };
    const script = buildAssScript(cuesFor(readString(input, 'file_name'), duration), styleOf(readObject(input, 'subtitle_settings')), size);
    const scratchDir = await ctx.scratchDir();
    await writeFile(join(scratchDir, 'captions.ass'), script, 'utf8');
    const outPath = join(scratchDir, 'subtitled.mp4');
    await runFfmpeg(
      [
        '-i', source.path,
        '-map', '0:v:0', '-map', '0:a:0?',
        // fontsdir makes libass use the bundled DejaVu files instead of whatever the machine has.
        '-vf', `ass=captions.ass:fontsdir='${filterValue(FONT_DIR)}',scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p`,
        ...H264_ARGS,
        ...(decoded.audio ? AAC_ARGS : ['-an']),
        outPath,
      ],
      { signal: ctx.signal, cwd: scratchDir },
    );
    const hostedVideoUrl = await hostMp4(ctx, outPath);
    return {
      done: finishedAsset('video', route, {
        video_url: hostedVideoUrl,
      }),
    };
  },
};

function cuesFor(fileName: string | undefined, duration: number): SubtitleCue[] {
  const title = fileName?.replace(/\.[a-z0-9]{2,4}$/i, '').replace(/[_-]+/g, ' ').trim() || 'Caption';
  const count = Math.max(1, Math.ceil(duration / CUE_SECONDS - 0.01));
  return Array.from({ length: count }, (_, index) => ({
    startSeconds: index * CUE_SECONDS,
    endSeconds: Math.min(duration, (index + 1) * CUE_SECONDS),
    text: `${title} (${index + 1}/${count})`,
  }));
}

function styleOf(settings: JsonObject | undefined): SubtitleStyle {
  if (!settings) return {};
  return {
    font: readString(settings, 'font'),
    fontSize: readNumber(settings, 'fontSize'),
    color: readString(settings, 'color'),
    strokeColor: readString(settings, 'strokeColor'),
    strokeWidth: readNumber(settings, 'strokeWidth'),
  };
}
