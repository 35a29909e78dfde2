import { expect } from 'chai';
import type { MediaProbe } from '../../../plugins/local/media/ffmpeg.js';

/** H.264 in yuv420p MP4 at the given size, lasting `duration` ± 0.5 s. */
export function expectH264(probe: MediaProbe, expected: { width: number; height: number; duration: number; fps?: number }): void {
  expect(probe.formatName).to.include('mp4');
  expect(probe.video, 'video stream').to.not.equal(undefined);
  expect(probe.video?.codec).to.equal('h264');
  expect(probe.video?.pixelFormat).to.equal('yuv420p');
  expect({ width: probe.video?.width, height: probe.video?.height }).to.deep.equal({ width: expected.width, height: expected.height });
  expect(probe.durationSeconds).to.be.closeTo(expected.duration, 0.5);
  if (expected.fps) expect(probe.video?.fps).to.be.closeTo(expected.fps, 0.01);
}

/** An MP3 lasting `duration` ± 0.5 s. */
export function expectMp3(probe: MediaProbe, duration: number): void {
  expect(probe.formatName).to.equal('mp3');
  expect(probe.audio?.codec).to.equal('mp3');
  expect(probe.video).to.equal(undefined);
  expect(probe.durationSeconds).to.be.closeTo(duration, 0.5);
}

/** Resolves to the error a promise rejects with (undefined when it resolves). */
export function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}
