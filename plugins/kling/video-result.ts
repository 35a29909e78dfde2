/**
 * The result of every Kling video task (image2video, text2video): `data.task_result.videos[0]` with its `url`
 * and `duration` (seconds, as a string such as "5.1"). Kling documents MP4 output and deletes generated files
 * after 30 days, so clients get our hosted copy.
 * https://app.klingai.com/global/dev/document-api/apiReference/model/textToVideo
 */
import { pick, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type KlingContext } from './kling-config.js';

export interface HostedKlingVideo {
  url: string;
  /** What Kling says the clip lasts; undefined when it says nothing usable. */
  durationSeconds?: number;
}

export async function hostKlingVideo(body: unknown, ctx: KlingContext): Promise<HostedKlingVideo> {
  const vendorUrl = requireField<string>(body, 'data.task_result.videos.0.url', PROVIDER_ID);
  // Naming the type keeps the hosted file right whatever the CDN declares.
  const hosted = await ctx.blobs.rehost(vendorUrl, { contentType: 'video/mp4', extension: 'mp4' });
  const duration = Number(pick(body, 'data.task_result.videos.0.duration'));
  return { url: hosted.url, durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : undefined };
}
