/**
 * lipsync.generate: the audio laid onto the video, the video looped or cut to the audio's length.
 * There is no face model offline; the clip and the speech are real and in sync in time only.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { muxAudio } from '../media/audio-mux.js';
import { fetchInputToFile, invalidInput, requireAudio, requireVideo } from '../media/input-media.js';
import { readKnownWords } from '../media/media-words.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

export const lipsyncGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const videoUrl = readString(input, 'video_url');
    const audioUrl = readString(input, 'audio_url');
    if (!videoUrl || !audioUrl) throw invalidInput('video_url and audio_url are required');
    const video = await fetchInputToFile(ctx, videoUrl, 'video_url');
    const audio = await fetchInputToFile(ctx, audioUrl, 'audio_url');
    const decodedVideo = await requireVideo(ctx, video);
    const decodedAudio = await requireAudio(ctx, audio);
    const duration = decodedAudio.durationSeconds;
    // The clip now says the audio's words (a narration's text, a sample's transcript), where they are known.
    const [spoken, pictured] = await Promise.all([readKnownWords(ctx, audio.path), readKnownWords(ctx, video.path)]);
    const outPath = join(await ctx.scratchDir(), 'lipsync.mp4');
    await muxAudio({
      videoPath: video.path,
      videoCodec: decodedVideo.video.codec,
      videoDurationSeconds: decodedVideo.durationSeconds,
      audioPath: audio.path,
      durationSeconds: duration,
      outPath,
      signal: ctx.signal,
      words: { words: spoken?.words, prompt: pictured?.prompt },
    });
    const hostedVideoUrl = await hostMp4(ctx, outPath);
    // Last use of the audio file: storage may move it rather than copy it.
    const hostedAudio = await ctx.blobs.putFile(audio.path, audio.contentType, audio.extension);
    return {
      done: finishedAsset('video', route, {
        video_url: hostedVideoUrl,
        audio_url: hostedAudio.url,
        // The output lasts as long as the audio: that is the length the lipsync.generate manifest settles on.
        usage: { output_seconds: duration },
      }),
    };
  },
};
