/**
 * Files in fal model results. Models answer a File object `{url, content_type?, file_name?, file_size?}`
 * (fal-js libs/client/src/types/endpoints.ts, `File`) or, in older models, a bare URL string; fal's media URLs
 * expire, so every file a client gets is our hosted copy.
 */
import { extensionForContentType, pick, requireField, type HostedFile } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type FalContext } from './fal-vendor.js';

export interface FalFile {
  url: string;
  /** What fal declares; the CDN's own header is often generic. */
  contentType?: string;
}

/** The kind of media a result field holds, and what to call it when fal does not say. */
export interface MediaKind {
  /** e.g. `video/`: a declared type outside it is not trusted. */
  typePrefix: string;
  contentType: string;
  extension: string;
}

export const MP4_VIDEO: MediaKind = { typePrefix: 'video/', contentType: 'video/mp4', extension: 'mp4' };

/** A File object at `path` (its `url` required). */
export function falFileAt(result: unknown, path: string): FalFile {
  const url = requireField<string>(result, `${path}.url`, PROVIDER_ID);
  const declared = pick(result, `${path}.content_type`);
  return { url, contentType: typeof declared === 'string' && declared !== '' ? declared : undefined };
}

/** A bare URL string at `path` (e.g. auto-caption's `video_url`). */
export function falUrlAt(result: unknown, path: string): FalFile {
  return { url: requireField<string>(result, path, PROVIDER_ID) };
}

/** The type and extension to store a file under: fal's declared type when it is of the expected kind. */
export function storedAs(file: FalFile, kind: MediaKind): { contentType: string; extension: string } {
  if (!file.contentType?.startsWith(kind.typePrefix)) return { contentType: kind.contentType, extension: kind.extension };
  const extension = extensionForContentType(file.contentType);
  return { contentType: file.contentType, extension: extension === 'bin' ? kind.extension : extension };
}

export function hostFalFile(ctx: FalContext, file: FalFile, kind: MediaKind): Promise<HostedFile> {
  return ctx.blobs.rehost(file.url, storedAs(file, kind));
}
