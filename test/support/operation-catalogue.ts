/**
 * The operations the gateway serves, as the tests count them: the 18 the spec specifies (SERVICE-SPEC.md,
 * "Operations"), and the 3 it only names ("Three further operations (location prompt enhancement, variant prompt
 * enhancement, video extension) ... their identifiers and fields: not shown"), whose manifests are documented
 * guesses (`x-guess` on their input, "Guessed shape" in their summary).
 */
export const SPEC_OPERATIONS: readonly string[] = [
  'prompt.enhance.video', 'prompt.enhance.image', 'image.generate', 'image.edit', 'video.generate', 'video.upscale',
  'music.generate', 'narration.generate', 'soundfx.generate', 'lipsync.generate', 'subtitles.generate',
  'smartmotion.generate', 'three_d.model.generate', 'three_d.location.generate', 'partner2.video.edit',
  'partner2.video.remix', 'partner2.video.generate_with_characters', 'partner2.character.create',
];

export const GUESSED_OPERATIONS: readonly string[] = ['prompt.enhance.location', 'prompt.enhance.variant', 'video.extend'];

export const ALL_OPERATIONS: readonly string[] = [...SPEC_OPERATIONS, ...GUESSED_OPERATIONS];
