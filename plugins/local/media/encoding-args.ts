/**
 * Output encodings every rendered file uses. ultrafast x264 keeps a 720p five-second clip near one
 * second on two cores; yuv420p and faststart make the MP4 play in browsers and start streaming at once.
 */
export const H264_ARGS = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];

export const AAC_ARGS = ['-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-ac', '2'];

/** LAME quality 7: several times faster than the default on small machines, still clean at 160 kb/s. */
export const MP3_ARGS = ['-c:a', 'libmp3lame', '-b:a', '160k', '-compression_level', '7'];

/** Rounds to the nearest even number: libx264 with yuv420p rejects odd widths and heights. */
export function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}
