/**
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes at exit) and ranks where the samples were taken: self
 * time per function, each named by function and `file:line`, as a share of the busy samples. Only the samples inside
 * a time window count, so the server's start-up (module loading, compiling) and its idle time around the load do not
 * crowd out what the load itself cost.
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** The parts of the `.cpuprofile` format (Chrome DevTools protocol `Profiler.Profile`) read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  /** Microseconds, on the same monotonic clock as `process.hrtime` on this machine. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileItem {
  /** `functionName (file:line)`, or a V8 pseudo-frame such as `(garbage collector)`. */
  name: string;
  /** Share of the busy samples (idle excluded) taken with this function on top of the stack. */
  percent: number;
}

export interface ProfileSummary {
  /** Samples inside the window, idle ones excluded. */
  busySamples: number;
  items: ProfileItem[];
}

/** A window on the monotonic clock, in microseconds (`process.hrtime.bigint() / 1000n`). */
export interface SampleWindow {
  fromUs: number;
  toUs: number;
}

/** The monotonic clock V8 stamps its samples with, in microseconds. */
export function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Maps a position in the code that ran back to its TypeScript source; undefined where it cannot. */
export type SourceLines = (path: string, line: number, column: number) => number | undefined;

/** Where tsx keeps its compile cache under a temporary folder (`TMPDIR`). */
const tsxCacheIn = (temporaryFolder: string): string => join(temporaryFolder, `tsx-${process.getuid?.() ?? 0}`);

/**
 * tsx compiles our TypeScript with whitespace minified, so every function of a file sits on the code's line 1; its
 * cache (`<tmpdir>/tsx-<uid>`, one JSON `{code, map}` per compiled file) keeps the source maps, which give the
 * TypeScript line back. The newest entry of a file is the one the profiled server ran when the cache is its own
 * (ownCompileCache).
 */
export async function tsxSourceLines(cacheDirectory = tsxCacheIn(tmpdir())): Promise<SourceLines> {
  const newest = new Map<string, { mtimeMs: number; map: SourceMapPayload }>();
  const names = await readdir(cacheDirectory).catch(() => [] as string[]);
  for (const name of names) {
    const file = join(cacheDirectory, name);
    try {
      const [{ mtimeMs }, text] = await Promise.all([stat(file), readFile(file, 'utf8')]);
      const { map } = JSON.parse(text) as { map?: SourceMapPayload };
      const source = map?.sources?.[0];
      if (!map || !source || (newest.get(source)?.mtimeMs ?? -1) >= mtimeMs) continue;
      newest.set(source, { mtimeMs, map });
    } catch {
      // Not a cache entry of this shape: skip it.
    }
  }
  const maps = new Map<string, SourceMap>();
  return (path, line, column) => {
    const entry = newest.get(path);
    if (!entry) return undefined;
    let map = maps.get(path);
    if (!map) maps.set(path, (map = new SourceMap(entry.map)));
    const found = map.findEntry(line, column) as { originalLine?: number };
    return found.originalLine;
  };
}

/** A compile cache of a profiled process's own (ownCompileCache). */
export interface CompileCache {
  /** Environment for the profiled process: `TMPDIR`, where tsx keeps its cache. */
  env: { TMPDIR: string };
  /** The source lines of what that process compiled. */
  sourceLines(): Promise<SourceLines>;
  remove(): Promise<void>;
}

/**
 * A temporary folder, hence a tsx cache, for one profiled process alone. In the shared cache a cache hit keeps its
 * old date, so another compile of the same file (the test runner's, in another module format) could be the newest
 * entry and lend its source map to the code the server ran: every frame then read line 1.
 */
export async function ownCompileCache(): Promise<CompileCache> {
  const folder = await mkdtemp(join(tmpdir(), 'mediagate-profiled-'));
  return {
    env: { TMPDIR: folder },
    sourceLines: () => tsxSourceLines(tsxCacheIn(folder)),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

/** Where a frame comes from, short: relative to `root` for our files, from `node_modules/` on for a dependency's. */
function location(frame: CpuProfile['nodes'][number]['callFrame'], root: string, sourceLines?: SourceLines): string {
  const { url } = frame;
  if (!url) return '';
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const inModules = path.lastIndexOf('node_modules/');
  const short = inModules >= 0 ? path.slice(inModules) : path.startsWith(root) ? relative(root, path) : path;
  const line = (path.endsWith('.ts') ? sourceLines?.(path, frame.lineNumber, frame.columnNumber) : undefined) ?? frame.lineNumber;
  // Both V8 and source maps count lines from 0.
  return `${short}:${line + 1}`;
}

function frameName(frame: CpuProfile['nodes'][number]['callFrame'], root: string, sourceLines?: SourceLines): string {
  const where = location(frame, root, sourceLines);
  const name = frame.functionName || '(anonymous)';
  return where ? `${name} (${where})` : name;
}

/**
 * Self-time ranking of one profile: the `limit` largest items within `window` (all samples when none is given).
 * `sourceLines` maps compiled TypeScript positions back to source lines (tsxSourceLines).
 */
export function summarizeProfile(
  profile: CpuProfile,
  root: string,
  { window, limit = 10, sourceLines }: { window?: SampleWindow; limit?: number; sourceLines?: SourceLines } = {},
): ProfileSummary {
  const names = new Map(profile.nodes.map((node) => [node.id, frameName(node.callFrame, root, sourceLines)]));
  const counts = new Map<string, number>();
  let at = profile.startTime;
  let busySamples = 0;
  profile.samples.forEach((nodeId, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    const name = names.get(nodeId) ?? '(unknown)';
    if (name === '(idle)') return;
    busySamples += 1;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  });
  const items = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, count]) => ({ name, percent: busySamples === 0 ? 0 : (100 * count) / busySamples }));
  return { busySamples, items };
}

/**
 * The profile of process `pid`'s main thread in `folder` (`--cpu-prof-dir`). Its worker threads (the SQLite
 * checkpointer) write their own, named `CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile`; the main thread is 0.
 */
export async function readProfileFrom(folder: string, pid: number): Promise<CpuProfile> {
  const files = (await readdir(folder)).filter((name) => name.endsWith('.cpuprofile') && name.includes(`.${pid}.0.`));
  if (files.length !== 1) throw new Error(`expected one main-thread .cpuprofile of process ${pid} in ${folder}, found ${files.length}`);
  return JSON.parse(await readFile(join(folder, files[0]), 'utf8')) as CpuProfile;
}
