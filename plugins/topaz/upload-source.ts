/**
 * Handing the source to Topaz, after the create call:
 *   PATCH video/{id}/accept -> {uploadId, urls[], message}: reserves the estimated credits and signs upload URLs
 *     (https://developer.topazlabs.com/reference/video/accept-request/accept-and-upload-video-request);
 *   PUT each segment to its URL, in order, keeping the ETag each answer carries;
 *   PATCH video/{id}/complete-upload/ with `uploadResults[{partNum, eTag}]` -> 202 {message}: queues the job
 *     (https://developer.topazlabs.com/api-reference/video-api/complete-upload).
 */
import { createReadStream } from 'node:fs';
import { MalformedVendorResponse, requireField, type StreamedBody, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';
import type { TopazContainer } from './source-probe.js';
import { PROVIDER_ID, type TopazContext } from './topaz-vendor.js';

/**
 * "Split the file into max(500 MB, ceil(source.size / urls.length))-byte segments and PUT them in order, one
 * per URL" (accept request reference); a source of 500 MB or less gets one URL for the whole file.
 */
export const SEGMENT_BYTES = 500_000_000;

/** A segment of up to 500 MB gets as long as a whole plugin call; the kernel's call timeout bounds it anyway. */
const SEGMENT_TIMEOUT_MS = 300_000;

const CONTAINER_TYPES: Record<TopazContainer, string> = { mp4: 'video/mp4', mov: 'video/quicktime', mkv: 'video/x-matroska' };

export function acceptPath(requestId: string): string {
  return `video/${encodeURIComponent(requestId)}/accept`;
}

export function completeUploadPath(requestId: string): string {
  return `video/${encodeURIComponent(requestId)}/complete-upload/`;
}

/** The source as probed: a file in the call's scratch folder, never loaded whole (it may run to gigabytes). */
export interface SourceFile {
  path: string;
  /** Bytes. */
  size: number;
  container: TopazContainer;
}

/** `segmentBytes` is Topaz's segment floor; only tests pass a smaller one, to upload several parts of a small file. */
export async function uploadSource(ctx: TopazContext, api: VendorHttp, requestId: string, source: SourceFile, segmentBytes = SEGMENT_BYTES): Promise<void> {
  const accepted = await api.request({ method: 'PATCH', path: acceptPath(requestId) });
  const urls = requireField<unknown[]>(accepted.data, 'urls', PROVIDER_ID, 'array');
  if (urls.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, 'urls', 'non-empty array');
  const partBytes = Math.max(segmentBytes, Math.ceil(source.size / urls.length));
  const uploadResults: { partNum: number; eTag: string }[] = [];
  for (let index = 0; index < urls.length; index += 1) {
    const start = index * partBytes;
    // A small file spread over several URLs would leave trailing empty parts, which storage refuses.
    if (start >= source.size && index > 0) break;
    const signedUrl = requireField<string>(accepted.data, `urls.${index}`, PROVIDER_ID);
    const answer = await storageHttp(ctx, signedUrl).request({
      method: 'PUT',
      path: signedUrl,
      headers: { 'content-type': CONTAINER_TYPES[source.container] },
      body: fileSegment(source.path, start, Math.min(partBytes, source.size - start)),
      responseType: 'text',
      timeoutMs: SEGMENT_TIMEOUT_MS,
    });
    const eTag = answer.headers.get('etag');
    if (!eTag) throw new MalformedVendorResponse(PROVIDER_ID, `ETag header of upload part ${index + 1} (${hostOf(signedUrl)})`, 'string');
    // S3 quotes its ETags; Topaz's example lists them bare.
    uploadResults.push({ partNum: index + 1, eTag: eTag.replace(/"/g, '') });
  }
  await api.request({ method: 'PATCH', path: completeUploadPath(requestId), json: { uploadResults } });
}

/** One part read from disk as it is sent, re-read from the start should the client retry the PUT. */
function fileSegment(path: string, start: number, length: number): StreamedBody {
  // `end` is inclusive. No part is empty: an empty file never passes the probe.
  return { length, open: () => createReadStream(path, { start, end: start + length - 1 }) };
}

/**
 * The signed URLs carry their own credentials: the API key must not travel with them, so uploads get a client
 * of their own. Storage answers S3's XML errors (`<Error><Code/><Message/></Error>`); a URL may be PUT again
 * after a failure ("the action overwrites any partially uploaded data"), so the client's retries are safe.
 */
function storageHttp(ctx: TopazContext, signedUrl: string): VendorHttp {
  return ctx.http({
    provider: PROVIDER_ID,
    baseUrl: signedUrl,
    describeError: (body) => {
      const text = typeof body === 'string' ? body : '';
      const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
      const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
      return { message: message ? `upload to storage refused: ${message}` : undefined, code };
    },
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'upload URL';
  }
}
