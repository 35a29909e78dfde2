/**
 * npm 11 runs a dependency's install scripts only when package.json's `allowScripts` approves them ("blocked by
 * default", npm-install-scripts(1); this machine's npm still runs them with a warning). The service needs some: the
 * SQLite driver's native build, the bundled ffmpeg and ffprobe made executable. A dependency that gains an install
 * script must be reviewed (approved or denied) rather than left to whatever the npm of the day does.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
const manifest = read('package.json') as { allowScripts?: Record<string, boolean> };
const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

/** Every package of the lock file with an install script, by name (each path's last `node_modules/` part). */
const withInstallScripts = [
  ...new Set(
    Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  ),
].sort();

describe('install scripts (package.json allowScripts)', () => {
  it('reviews every locked package that has one: approved or denied', () => {
    const reviewed = manifest.allowScripts ?? {};
    expect(withInstallScripts.filter((name) => !(name in reviewed)), 'run `npm install-scripts ls`, then approve or deny').to.deep.equal([]);
  });

  it('approves the ones the service cannot run without', () => {
    const needed = ['better-sqlite3', ...withInstallScripts.filter((name) => /^@ff(mpeg|probe)-installer\//.test(name))];
    expect(needed.length).to.be.greaterThan(6);
    expect(needed.filter((name) => manifest.allowScripts?.[name] !== true)).to.deep.equal([]);
  });
});
