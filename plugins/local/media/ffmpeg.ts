/**
 * The local plugin's face of the SDK's ffmpeg wrapper: the same runs and probes, with failures turned into
 * ProviderErrors whose message a client may read. The tool's own output stays on the error's `cause`
 * (a MediaToolError), which the plugin logs (see `served` in ../index.ts). An abort kills the ffmpeg process
 * (SIGKILL) and the call settles once it has exited.
 */
import { MediaToolError, ProviderError, runFfmpeg as runGuardedFfmpeg, type MediaRunOptions } from '../../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from '../local-config.js';

export { filterValue, probeMedia, type AudioStreamInfo, type MediaProbe, type VideoStreamInfo } from '../../../src/kernel/plugin-sdk/index.js';

export type RunOptions = MediaRunOptions;

export async function runFfmpeg(args: string[], options: RunOptions): Promise<void> {
  try {
    await runGuardedFfmpeg(args, options);
  } catch (error) {
    throw mediaFailure(error, 'the media could not be processed');
  }
}

/**
 * A ProviderError with `message` for the client; the MediaToolError (with stderr) rides along as `cause`.
 * Aborts (timeout, shutdown) are retryable; anything else would fail the same way again. A client's cancel
 * aborts too: the kernel, which knows why it aborted, fails that request for good instead.
 */
export function mediaFailure(error: unknown, message: string): ProviderError {
  if (ProviderError.is(error)) return error;
  const failure = error instanceof MediaToolError && error.retryable ? mediaInterrupted() : new ProviderError(message, { provider: PROVIDER_ID, retryable: false });
  failure.cause = error;
  return failure;
}

/** A render stopped by an abort before it ended, whether it ran (ffmpeg killed) or waited for a slot (render-slots.ts). */
export function mediaInterrupted(): ProviderError {
  return new ProviderError('media processing was interrupted', { provider: PROVIDER_ID, retryable: true });
}
