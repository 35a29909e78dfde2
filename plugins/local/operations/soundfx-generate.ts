/**
 * soundfx.generate: a synthesised effect as MP3. With video_url (the video-context path) the
 * effect lasts as long as the video by default and is also muxed onto it (`sfx_video_url`).
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { writeMp3 } from '../audio/mp3-file.js';
import { readBoolean, readDuration, readNumber, readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { muxAudio } from '../media/audio-mux.js';
import { fetchInputToFile, requireVideo, type DecodedVideo, type FetchedInput } from '../media/input-media.js';
import { runOffThread } from '../off-thread/off-thread.js';
import { seedFrom } from '../media/seeded-random.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

const DEFAULT_DURATION_SECONDS = 5;

export const soundfxGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = [readString(input, 'prompt'), readString(input, 'description_prompt'), readString(input, 'title')]
      .filter(Boolean)
      .join(' ');
    const videoUrl = readString(input, 'video_url');
    let video: { source: FetchedInput; decoded: DecodedVideo } | undefined;
    if (videoUrl) {
      const source = await fetchInputToFile(ctx, videoUrl, 'video_url');
      video = { source, decoded: await requireVideo(ctx, source) };
    }
    const duration = readDuration(input, 'duration_seconds', video?.decoded.durationSeconds ?? DEFAULT_DURATION_SECONDS);
    const audio = await runOffThread('soundEffect', {
      prompt,
      seed: seedFrom(prompt, readNumber(input, 'seed')),
      durationSeconds: duration,
      loop: readBoolean(input, 'loop') === true,
    }, ctx.signal);
    const scratchDir = await ctx.scratchDir();
    const audioPath = join(scratchDir, 'sound-effect.mp3');
    await writeMp3(audio, audioPath, ctx.signal);

    // Muxed before the MP3 is hosted: hosting may move the file away.
    let sfxVideoUrl: string | undefined;
    if (video) {
      const videoPath = join(scratchDir, 'sound-effect-video.mp4');
      await muxAudio({
        videoPath: video.source.path,
        videoCodec: video.decoded.video.codec,
        videoDurationSeconds: video.decoded.durationSeconds,
        audioPath,
        // The preview keeps the video's length; the effect is cut or padded to fit it.
        durationSeconds: video.decoded.durationSeconds,
        outPath: videoPath,
        signal: ctx.signal,
      });
      sfxVideoUrl = await hostMp4(ctx, videoPath);
    }
    const hostedAudio = await ctx.blobs.putFile(audioPath, 'audio/mpeg', 'mp3');
    return {
      done: finishedAsset('audio', route, {
        audio_url: hostedAudio.url,
        ...(sfxVideoUrl ? { sfx_video_url: sfxVideoUrl } : {}),
        mode: readString(input, 'mode') ?? (videoUrl ? 'video_context' : 'one_off'),
      }),
    };
  },
};
