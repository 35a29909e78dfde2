/**
 * Which ffmpeg runs: the maintained build on PATH first, the bundled 2018 build only where allowed, and a start
 * that stops with what to install when neither may be used (production).
 */
import { expect } from 'chai';
import { dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { locateMediaTools, MediaToolsMissing } from '../../src/kernel/plugin-sdk/index.js';

const systemFfmpeg = execFileSync('sh', ['-c', 'command -v ffmpeg']).toString().trim();

describe('media tool binaries', () => {
  it('prefers the build on PATH over the bundled one', async () => {
    const located = await locateMediaTools({ ffmpeg_path: '', ffprobe_path: '', allow_bundled_ffmpeg: true }, { PATH: dirname(systemFfmpeg) });
    expect(located.ffmpeg).to.include({ path: systemFfmpeg, source: 'path' });
    expect(located.ffprobe.source).to.equal('path');
    expect(located.ffmpeg.version).to.match(/^ffmpeg version /);
  });

  it('falls back to the bundled build only where it is allowed', async () => {
    const located = await locateMediaTools({ ffmpeg_path: '', ffprobe_path: '', allow_bundled_ffmpeg: true }, { PATH: '' });
    expect(located.ffmpeg.source).to.equal('bundled');
    expect(located.ffmpeg.path).to.include('@ffmpeg-installer');
  });

  it('stops with what to install when no maintained build is found and the bundled one is not allowed', async () => {
    const error = await locateMediaTools({ ffmpeg_path: '', ffprobe_path: '', allow_bundled_ffmpeg: false }, { PATH: '' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).to.be.instanceOf(MediaToolsMissing);
    expect((error as Error).message).to.equal(
      'no ffmpeg found: install a maintained build (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) or set media.ffmpeg_path (MEDIAGATE_FFMPEG_PATH); the bundled npm build is not allowed here (media.allow_bundled_ffmpeg is false)',
    );
  });

  it('refuses a configured path that does not run', async () => {
    const error = await locateMediaTools({ ffmpeg_path: '/nonexistent/ffmpeg', ffprobe_path: '', allow_bundled_ffmpeg: true }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).to.equal('media.ffmpeg_path is /nonexistent/ffmpeg, which does not run as ffmpeg (`/nonexistent/ffmpeg -version` failed)');
  });
});
