/**
 * `GET v1/files/retrieve?file_id=`: the generated file, `{file: {file_id, bytes, created_at, filename, purpose,
 * download_url}, base_resp}` (MiniMax's File Management reference, "Retrieve", as mirrored at
 * https://minimax-zh.mintlify.dev/docs/api-reference/file-management-retrieve). The download link expires within
 * hours (9 h on the video-query page, 1 h on others), so the file is copied into our storage at once.
 */
import { requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, unwrapBaseResp } from './minimax-vendor.js';

export const RETRIEVE_FILE_PATH = 'v1/files/retrieve';

export function readDownloadUrl(data: unknown): string {
  unwrapBaseResp(data, `GET /${RETRIEVE_FILE_PATH}`);
  const url = requireField<string>(data, 'file.download_url', PROVIDER_ID);
  // The reference's example shows a bare host ("www.downloadurl.com"); MiniMax serves its files over HTTPS.
  return /^https?:\/\//i.test(url) ? url : `https://${url}`;
}
