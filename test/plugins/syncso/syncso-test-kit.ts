/**
 * What the sync. tests share: credentials, hosts, the client's media, and generation objects shaped as sync.
 * documents them (https://sync.so/docs/api-reference/api/generate-api/create-with-files shows the create
 * answer; a finished generation's `outputUrl` points at api.sync.so's result download).
 */
import nock from 'nock';

export const API = 'https://api.sync.so';
export const MEDIA = 'https://media.example';
export const KEY = 'sk-sync-test-key-not-real';
export const CONFIG = { api_key: KEY };
export const OPERATION = 'lipsync.generate';
export const GENERATION_ID = '6533643b-aceb-4c40-967e-d9ba9baac39e';
export const VIDEO_URL = `${MEDIA}/inputs/face.mp4`;
export const AUDIO_URL = `${MEDIA}/inputs/speech.wav`;
export const INPUT = { video_url: VIDEO_URL, audio_url: AUDIO_URL, video_duration: 10, audio_duration: 10, video_title: 'Face', audio_title: 'Speech' };
export const OUTPUT_URL = `${API}/v2/generations/${GENERATION_ID}/result?token=a2b1466a-8795-478b-9ef2-47b5fdaf7d68`;

export const AUDIO = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), Buffer.alloc(32, 7)]);
export const SYNCED = Buffer.from('\x00\x00\x00\x18ftypmp42 lip-synced video bytes');

/** sync.'s API with the key required on every call. */
export function syncApi(): nock.Scope {
  return nock(API, { reqheaders: { 'x-api-key': KEY } });
}

/** The client's speech, as its CDN serves it. */
export function serveAudio(): nock.Scope {
  return nock(MEDIA).get('/inputs/speech.wav').reply(200, AUDIO, { 'content-type': 'audio/wav' });
}

/** The synced video behind `outputUrl` (its token is in the URL; no API key). */
export function serveOutput(): nock.Scope {
  return nock(API, { badheaders: ['x-api-key'] }).get(`/v2/generations/${GENERATION_ID}/result`).query(true).reply(200, SYNCED, { 'content-type': 'video/mp4' });
}

/** A generation object; `status` and `extra` set what changes as it runs. */
export function generation(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: GENERATION_ID,
    createdAt: '2024-01-15T09:30:00Z',
    status,
    model: 'lipsync-2',
    input: [
      { type: 'video', url: VIDEO_URL },
      { type: 'audio', url: AUDIO_URL },
    ],
    options: { sync_mode: 'cut_off' },
    webhookUrl: null,
    outputUrl: null,
    outputDuration: null,
    error: null,
    ...extra,
  };
}

export function completed(outputDuration = 9.98): Record<string, unknown> {
  return generation('COMPLETED', { outputUrl: OUTPUT_URL, outputDuration });
}

/** The create body for INPUT: the route's model, both media by URL, and the cut_off sync mode. */
export const CREATE_BODY = {
  model: 'lipsync-2',
  input: [
    { type: 'video', url: VIDEO_URL },
    { type: 'audio', url: AUDIO_URL },
  ],
  options: { sync_mode: 'cut_off' },
};
