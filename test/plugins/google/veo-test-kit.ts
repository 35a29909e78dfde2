/**
 * What the Veo tests share: the Gemini API paths of a Veo run and operation bodies shaped as the Gemini API
 * returns them (google.longrunning.Operation; `response.generateVideoResponse` as googleapis/js-genai reads it in
 * generateVideosOperationFromMldev / generateVideosResponseFromMldev; the video URI as
 * https://ai.google.dev/gemini-api/docs/video shows it).
 */
export const OPERATION = 'video.generate';
export const VEO_MODEL = 'veo-3.1-generate-preview';
export const SUBMIT_PATH = `/v1beta/models/${VEO_MODEL}:predictLongRunning`;
export const FAST_SUBMIT_PATH = '/v1beta/models/veo-3.1-fast-generate-preview:predictLongRunning';
export const OPERATION_NAME = `models/${VEO_MODEL}/operations/k5d2xq9h7z1a`;
export const POLL_PATH = `/v1beta/${OPERATION_NAME}`;
export const FILE_ID = 'a1b2c3d4e5f6';
export const DOWNLOAD_PATH = `/v1beta/files/${FILE_ID}:download`;
export const VIDEO_URI = `https://generativelanguage.googleapis.com${DOWNLOAD_PATH}?alt=media`;
/** The start of an MP4 (an `ftyp` box), enough to tell the hosted copy is the downloaded file. */
export const MP4 = Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00isomiso2avc1mp41 veo clip');

/** What predictLongRunning answers: the operation, not yet done (proto3 JSON leaves `done: false` out). */
export function submitted(name = OPERATION_NAME): Record<string, unknown> {
  return { name };
}

export function running(): Record<string, unknown> {
  return { name: OPERATION_NAME, done: false };
}

export function finished(uri = VIDEO_URI): Record<string, unknown> {
  return {
    name: OPERATION_NAME,
    done: true,
    response: {
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
      generateVideoResponse: { generatedSamples: [{ video: { uri } }] },
    },
  };
}

/** A finished operation whose video Google's safety filters removed. */
export function filtered(reasons: string[]): Record<string, unknown> {
  return { name: OPERATION_NAME, done: true, response: { generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: reasons } } };
}

/** A finished operation that failed (google.rpc.Status). */
export function failedOperation(code: number, message: string): Record<string, unknown> {
  return { name: OPERATION_NAME, done: true, error: { code, message } };
}
