/**
 * What `output.model` says when the local plugin serves an operation: the local renderer that made the output,
 * never the vendor model the client routed to (a client must not take a stand-in for `sora-2` or
 * `gpt-4.1-mini`). Several operations share a renderer where one piece of code makes their output.
 */
export const RENDERERS: Readonly<Record<string, string>> = {
  'prompt.enhance.video': 'local-prompt-template',
  'prompt.enhance.image': 'local-prompt-template',
  'image.generate': 'local-image',
  'image.edit': 'local-image',
  'video.generate': 'local-video',
  'video.upscale': 'local-upscale',
  'music.generate': 'local-music',
  'narration.generate': 'local-speech',
  'soundfx.generate': 'local-soundfx',
  'lipsync.generate': 'local-lipsync',
  'subtitles.generate': 'local-subtitles',
  'smartmotion.generate': 'local-video',
  'three_d.model.generate': 'local-3d-model',
  'three_d.location.generate': 'local-3d-location',
  'partner2.video.edit': 'local-video',
  'partner2.video.remix': 'local-video',
  'partner2.video.generate_with_characters': 'local-video',
  'partner2.character.create': 'local-character',
  'prompt.enhance.location': 'local-prompt-template',
  'prompt.enhance.variant': 'local-prompt-template',
  'video.extend': 'local-video',
};

/** Renderers that only write text: their operations take no render slot (render-slots.ts). */
export const TEXT_RENDERERS: ReadonlySet<string> = new Set(['local-prompt-template']);
