/**
 * A Veo long-running operation as `GET /v1beta/{operation name}` returns it, read into what the gateway needs,
 * and where its video is downloaded. Pure, so every documented shape is testable without a network.
 *
 * The operation is a google.longrunning.Operation: `done` is true once finished (and, as proto3 JSON, may be
 * left out while false); a failed one carries `error` (google.rpc.Status); a finished one carries
 * `response.generateVideoResponse` with `generatedSamples[].video.uri`, or, when Google's safety filters took
 * the video, `raiMediaFilteredCount` and `raiMediaFilteredReasons` instead (googleapis/js-genai,
 * generateVideosOperationFromMldev / generateVideosResponseFromMldev).
 */
import { MalformedVendorResponse, pick, requireField, textAt } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './gemini-api.js';

export type VeoOperationView = { state: 'pending' } | { state: 'failed'; message: string } | { state: 'done'; videoUri: string };

const RESPONSE = 'response.generateVideoResponse';

export function readVeoOperation(data: unknown): VeoOperationView {
  // Every Operation has its name; an answer without one is not an Operation at all.
  requireField<string>(data, 'name', PROVIDER_ID);
  if (pick(data, 'done') !== true) return { state: 'pending' };

  const error = pick(data, 'error');
  if (error !== null && typeof error === 'object') {
    const message = textAt(error, 'message');
    const code = pick(error, 'code');
    return { state: 'failed', message: `${PROVIDER_ID}: ${message ?? 'the video generation failed'}${code === undefined ? '' : ` (code ${String(code)})`}` };
  }

  const videoUri = pick(data, `${RESPONSE}.generatedSamples.0.video.uri`);
  if (typeof videoUri === 'string' && videoUri !== '') return { state: 'done', videoUri };

  const filtered = pick(data, `${RESPONSE}.raiMediaFilteredCount`);
  const reasons = pick(data, `${RESPONSE}.raiMediaFilteredReasons`);
  const reasonText = Array.isArray(reasons) ? reasons.filter((reason): reason is string => typeof reason === 'string' && reason.trim() !== '').join(' ') : '';
  if ((typeof filtered === 'number' && filtered > 0) || reasonText !== '') {
    return { state: 'failed', message: `${PROVIDER_ID}: Veo returned no video, its safety filters removed it${reasonText ? `: ${reasonText.slice(0, 300)}` : ''}` };
  }
  throw new MalformedVendorResponse(PROVIDER_ID, `${RESPONSE}.generatedSamples.0.video.uri`, 'string');
}

/**
 * The operation's path relative to the base URL. Its name is a path itself
 * (`models/veo-3.1-generate-preview/operations/abc123`), so each segment is encoded, not the whole.
 */
export function operationPath(name: string): string {
  return `v1beta/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The video's download path relative to the base URL. The answer's URI points at Google's host
 * (`https://generativelanguage.googleapis.com/v1beta/files/{id}:download?alt=media`); the file is fetched by its
 * id under the configured base URL instead, as Google's SDK does (js-genai `files.download`:
 * `files/{name}:download?alt=media`), so a proxying `base_url` is honoured and the API key is never sent to a
 * host the vendor's answer chose.
 */
export function videoDownloadPath(videoUri: string): string {
  const id = /\/files\/([^/:?#]+)/.exec(videoUri)?.[1];
  if (!id) throw new MalformedVendorResponse(PROVIDER_ID, `${RESPONSE}.generatedSamples.0.video.uri (a files/{id} URI)`, 'string');
  return `v1beta/files/${encodeURIComponent(id)}:download`;
}
