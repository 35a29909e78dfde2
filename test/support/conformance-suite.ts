/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, a devDependency) on Node 22,
 * which it needs and which `npx -p node@22` fetches from the npm registry the first time. The child runs
 * asynchronously: the service under test lives in this process and must keep answering.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const conformanceEntry = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

export interface ConformanceCounts {
  passed: number;
  total: number;
  failed: number;
  warnings: number;
}

export interface ConformanceRun {
  exitCode: number;
  output: string;
  /** The suite's `Passed: n/m, f failed, w warnings` line; undefined when it never got to report. */
  counts?: ConformanceCounts;
}

/** `conformance <args...>`, e.g. `['server', '--url', url, '--scenario', 'ping']`. */
export function runConformance(args: string[], timeoutMs: number): Promise<ConformanceRun> {
  return new Promise((resolve) => {
    execFile('npx', ['-y', '-p', 'node@22', 'node', conformanceEntry, ...args], { cwd: projectRoot, timeout: timeoutMs, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      const output = `${stdout}\n${stderr}`;
      resolve({ exitCode, output, counts: summary(output) });
    });
  });
}

function summary(output: string): ConformanceCounts | undefined {
  const match = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
  return match ? { passed: Number(match[1]), total: Number(match[2]), failed: Number(match[3]), warnings: Number(match[4]) } : undefined;
}

/**
 * What a test does when the suite could not run at all (package missing, Node 22 not fetchable): fail in CI,
 * where it must run, and skip with the reason elsewhere.
 */
export function suiteUnavailable(context: Mocha.Context, reason: string): never {
  if (process.env.CI) throw new Error(reason);
  console.warn(`skipping the MCP conformance suite: ${reason}`);
  context.skip();
}

export function conformanceInstalled(): boolean {
  return existsSync(conformanceEntry);
}
