/**
 * Debian's Chromium driven by playwright-core, for the browser tests: where it is, the CI rule (a missing
 * Chromium skips the suite on a laptop but fails in CI, where .ci/run installs it), how it is launched, and
 * where screenshots go: into docs/console/ for the README only when MEDIAGATE_UPDATE_SCREENSHOTS=1, otherwise
 * into a temp folder, so a test run never changes committed files.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { projectRoot } from '../../src/kernel/config/index.js';

export const chromiumPath = '/usr/bin/chromium';

/** Skips the calling suite when Chromium is missing; in CI (CI set) that is a failure instead. */
export function requireChromium(suite: Mocha.Context): void {
  if (existsSync(chromiumPath)) return;
  if (process.env.CI) throw new Error(`Chromium is missing at ${chromiumPath}: .ci/run installs it (apt-get install -y chromium)`);
  suite.skip();
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    // No sandbox: tests run as root in containers. No background traffic: nothing beyond loopback.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export interface ScreenshotFolder {
  photograph(page: Page, name: string): Promise<void>;
  /** Removes the temp folder (never docs/console/). */
  dispose(): Promise<void>;
}

export async function screenshotFolder(): Promise<ScreenshotFolder> {
  const updating = process.env.MEDIAGATE_UPDATE_SCREENSHOTS === '1';
  const folder = updating ? join(projectRoot, 'docs/console') : await mkdtemp(join(tmpdir(), 'mediagate-screenshots-'));
  await mkdir(folder, { recursive: true });
  return {
    async photograph(page, name) {
      await page.screenshot({ path: join(folder, `${name}.png`) });
    },
    async dispose() {
      if (!updating) await rm(folder, { recursive: true, force: true });
    },
  };
}
