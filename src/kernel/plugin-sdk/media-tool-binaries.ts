/**
 * Which ffmpeg and ffprobe binaries run, decided once at start: a configured path, else the maintained build on
 * PATH (Debian's `ffmpeg`, Homebrew...), else the bundled npm build (ffmpeg 4.1 from 2018) where the settings
 * allow it — never in production, where untrusted media must not meet an unmaintained decoder.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from 'pino';

const VERSION_TIMEOUT_MS = 10_000;

export type MediaToolName = 'ffmpeg' | 'ffprobe';
/** Where a binary came from: the operator's setting, the system PATH, or the bundled npm package. */
export type MediaToolSource = 'setting' | 'path' | 'bundled';

export interface LocatedTool {
  path: string;
  /** First line of `-version`, e.g. `ffmpeg version 5.1.6-0+deb12u1`. */
  version: string;
  source: MediaToolSource;
}

export interface MediaToolchain {
  ffmpeg: LocatedTool;
  ffprobe: LocatedTool;
}

export interface MediaToolSettings {
  /** Explicit binary paths; empty: search PATH. */
  ffmpeg_path: string;
  ffprobe_path: string;
  /** Whether the bundled npm build (2018 ffmpeg 4.1) may be used when no maintained build is found. */
  allow_bundled_ffmpeg: boolean;
}

export class MediaToolsMissing extends Error {
  override readonly name = 'MediaToolsMissing';
}

let toolchain: Promise<MediaToolchain> | undefined;

/** Finds the binaries and reads their versions; throws MediaToolsMissing naming what to install or set. */
export async function locateMediaTools(settings: MediaToolSettings, env: NodeJS.ProcessEnv = process.env): Promise<MediaToolchain> {
  const [ffmpeg, ffprobe] = await Promise.all([
    locateTool('ffmpeg', settings.ffmpeg_path, settings.allow_bundled_ffmpeg, env),
    locateTool('ffprobe', settings.ffprobe_path, settings.allow_bundled_ffmpeg, env),
  ]);
  return { ffmpeg, ffprobe };
}

/** Makes `runFfmpeg` and `probeMedia` use these binaries (called once at start by the gateway). */
export function useMediaTools(located: MediaToolchain): void {
  toolchain = Promise.resolve(located);
}

/**
 * One lookup per distinct configuration and process: finding a binary runs `-version` of every candidate, and a
 * process may build several gateways (tests do, hundreds of times). A failed lookup is not kept.
 */
const lookups = new Map<string, Promise<MediaToolchain>>();
function locatedOnce(settings: MediaToolSettings): Promise<MediaToolchain> {
  const key = JSON.stringify([settings.ffmpeg_path, settings.ffprobe_path, settings.allow_bundled_ffmpeg]);
  let lookup = lookups.get(key);
  if (!lookup) {
    lookup = locateMediaTools(settings);
    lookups.set(key, lookup);
    lookup.catch(() => lookups.delete(key));
  }
  return lookup;
}

/** Locates the binaries, makes them the ones in use and logs which (a warning for the bundled 2018 build). */
export async function startMediaTools(settings: MediaToolSettings, log: Logger): Promise<MediaToolchain> {
  const located = await locatedOnce(settings);
  useMediaTools(located);
  for (const [name, tool] of Object.entries(located)) {
    log.info({ tool: name, path: tool.path, version: tool.version, source: tool.source }, `using ${tool.version}`);
    if (tool.source === 'bundled') {
      log.warn({ tool: name, path: tool.path, version: tool.version },
        `${name} is the bundled npm build (${tool.version}), unmaintained and with known vulnerabilities: install ffmpeg (apt-get install ffmpeg, brew install ffmpeg) or set media.${name}_path`);
    }
  }
  return located;
}

/**
 * The binaries in use. Code that runs plugins without a gateway (tests, scripts) gets the default lookup:
 * PATH, then the bundled build.
 */
export function currentMediaTools(): Promise<MediaToolchain> {
  toolchain ??= locateMediaTools({ ffmpeg_path: '', ffprobe_path: '', allow_bundled_ffmpeg: true });
  return toolchain;
}

async function locateTool(name: MediaToolName, configuredPath: string, allowBundled: boolean, env: NodeJS.ProcessEnv): Promise<LocatedTool> {
  if (configuredPath) {
    const version = await versionOf(configuredPath);
    if (!version) throw new MediaToolsMissing(`media.${name}_path is ${configuredPath}, which does not run as ${name} (\`${configuredPath} -version\` failed)`);
    return { path: configuredPath, version, source: 'setting' };
  }
  for (const candidate of pathCandidates(name, env)) {
    if (!(await isExecutable(candidate))) continue;
    const version = await versionOf(candidate);
    if (version) return { path: candidate, version, source: 'path' };
  }
  if (allowBundled) {
    const bundled = await bundledPath(name);
    const version = bundled ? await versionOf(bundled) : undefined;
    if (bundled && version) return { path: bundled, version, source: 'bundled' };
  }
  throw new MediaToolsMissing(
    `no ${name} found: install a maintained build (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) ` +
      `or set media.${name}_path (MEDIAGATE_${name.toUpperCase()}_PATH)` +
      (allowBundled ? '' : '; the bundled npm build is not allowed here (media.allow_bundled_ffmpeg is false)'),
  );
}

function pathCandidates(name: MediaToolName, env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name));
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function versionOf(binary: string): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)(binary, ['-version'], { timeout: VERSION_TIMEOUT_MS });
    return stdout.split('\n')[0].replace(/\s+Copyright.*$/, '').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Imported only when needed, so a deployment that forbids the bundled build never loads it. */
async function bundledPath(name: MediaToolName): Promise<string | undefined> {
  try {
    const installer = name === 'ffmpeg' ? await import('@ffmpeg-installer/ffmpeg') : await import('@ffprobe-installer/ffprobe');
    return installer.default.path;
  } catch {
    return undefined;
  }
}
