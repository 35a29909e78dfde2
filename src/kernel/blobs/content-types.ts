/** Media types of the files the gateway hosts, by extension. */
const byExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  splat: 'application/octet-stream',
  spz: 'application/octet-stream',
  ply: 'application/octet-stream',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  ass: 'text/x-ssa',
};

export function contentTypeForKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return byExtension[extension] ?? 'application/octet-stream';
}

export function extensionForContentType(contentType: string): string {
  const base = contentType.split(';')[0].trim().toLowerCase();
  return Object.entries(byExtension).find(([, type]) => type === base)?.[0] ?? 'bin';
}
