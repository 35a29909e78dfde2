/**
 * Prometheus for tests: Debian's `prometheus` package (prometheus + promtool), the gateway's rule files read as
 * data, and a real Prometheus server on a loopback port with its storage in a temp folder, queried through its
 * HTTP API. Nothing here knows the gateway's metrics: the tests say what to scrape and what to expect.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { projectRoot } from '../../src/kernel/config/index.js';
import { eventually } from './eventually.js';
import { freePort } from './free-port.js';

export const prometheusFolder = join(projectRoot, 'prometheus');
export const ruleFiles = ['mediagate-recording.yaml', 'mediagate-alerts.yaml'].map((file) => join(prometheusFolder, 'rules', file));

/**
 * Call from a `before` hook. Without promtool and prometheus the run fails under CI (a skipped suite would pass
 * silently) and skips locally, where a developer may not have installed Debian's `prometheus` package.
 */
export async function requirePrometheusTools(hookContext: Mocha.Context): Promise<void> {
  const missing: string[] = [];
  for (const tool of ['promtool', 'prometheus']) {
    if ((await run(tool, ['--version'])).code !== 0) missing.push(tool);
  }
  if (missing.length === 0) return;
  if (process.env.CI) throw new Error(`${missing.join(' and ')} not found; CI is set, so the Prometheus tests fail instead of skipping (apt-get install prometheus)`);
  console.warn(`${missing.join(' and ')} not found: skipping the Prometheus tests (apt-get install prometheus)`);
  hookContext.skip();
}

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end; a program that cannot be started reports code 127, as a shell would. */
export function run(program: string, args: string[], options: { cwd?: string } = {}): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(program, args, { cwd: options.cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export function promtool(args: string[], options: { cwd?: string } = {}): Promise<ToolRun> {
  return run('promtool', args, options);
}

export interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleGroup {
  name: string;
  interval?: string;
  rules: Rule[];
}

export interface RuleFile {
  groups: RuleGroup[];
}

export function readRuleFile(path: string): RuleFile {
  return parse(readFileSync(path, 'utf8')) as RuleFile;
}

export function rulesOf(file: RuleFile): Rule[] {
  return file.groups.flatMap((group) => group.rules);
}

/**
 * The expression with every threshold taken out: each comparison outside label matchers gets `bool` (so it
 * keeps every series, valued 0 or 1, instead of filtering), and `absent(x)` becomes `(x)`. What it returns are
 * the series the alert watches: non-empty means the alert could fire on this data, whatever the values.
 */
export function withoutThresholds(expr: string): string {
  let out = '';
  let braceDepth = 0;
  let quote: string | undefined;
  for (let i = 0; i < expr.length; i++) {
    const char = expr[i];
    if (quote) {
      out += char;
      if (char === '\\') out += expr[++i] ?? '';
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '{') braceDepth += 1;
    else if (char === '}') braceDepth -= 1;
    else if (braceDepth === 0) {
      const pair = expr.slice(i, i + 2);
      const operator = ['==', '!=', '>=', '<='].includes(pair) ? pair : char === '>' || char === '<' ? char : undefined;
      if (operator) {
        out += operator;
        i += operator.length - 1;
        if (!/^\s*bool\b/.test(expr.slice(i + 1))) out += ' bool';
        continue;
      }
    }
    out += char;
  }
  return out.replace(/\babsent\s*\(/g, '(');
}

export interface ScrapeJob {
  job: string;
  /** host:port of each target. */
  targets: string[];
}

export interface PrometheusOptions {
  jobs: ScrapeJob[];
  /** Rule files to load (default: the gateway's). */
  ruleFiles?: string[];
  /** Scrape and evaluation interval (default 1s). */
  interval?: string;
}

export interface VectorSample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface RunningPrometheus {
  url: string;
  /** An instant query; throws with Prometheus' error for a query it refuses. */
  query(expr: string): Promise<VectorSample[]>;
  /** Alerts Prometheus holds now, pending or firing. */
  alerts(): Promise<{ labels: Record<string, string>; state: 'pending' | 'firing'; value: string }[]>;
  /** Waits until every scrape target has been scraped successfully at least once. */
  waitForTargets(deadlineMs?: number): Promise<void>;
  /** The config file it runs with. */
  configFile: string;
  log: string[];
  stop(): Promise<void>;
}

/**
 * Starts `prometheus` on a free loopback port with a config built from the repository's example
 * (prometheus/prometheus.yml): its jobs with the test's targets, every interval shortened, the given rule files.
 */
export async function startPrometheus(options: PrometheusOptions): Promise<RunningPrometheus> {
  const folder = await mkdtemp(join(tmpdir(), 'mediagate-prometheus-'));
  const example = parse(readFileSync(join(prometheusFolder, 'prometheus.yml'), 'utf8')) as {
    global: Record<string, string>;
    rule_files: string[];
    scrape_configs: { job_name: string; static_configs: { targets: string[] }[]; [key: string]: unknown }[];
  };
  const interval = options.interval ?? '1s';
  const config = {
    ...example,
    global: { ...example.global, scrape_interval: interval, evaluation_interval: interval, scrape_timeout: interval },
    rule_files: options.ruleFiles ?? ruleFiles,
    scrape_configs: options.jobs.map(({ job, targets }) => {
      const scrape = example.scrape_configs.find((candidate) => candidate.job_name === job);
      if (!scrape) throw new Error(`prometheus/prometheus.yml has no job ${job}`);
      return { ...scrape, static_configs: [{ targets }] };
    }),
  };
  const configFile = join(folder, 'prometheus.yml');
  await writeFile(configFile, stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    'prometheus',
    [`--config.file=${configFile}`, `--storage.tsdb.path=${join(folder, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log: string[] = [];
  child.stdout!.on('data', (chunk) => log.push(String(chunk)));
  child.stderr!.on('data', (chunk) => log.push(String(chunk)));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  };

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(url + path);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error ?? response.status}`);
    return body.data;
  };

  try {
    await eventually(
      'Prometheus to be ready',
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${log.join('')}`);
        return (await fetch(`${url}/-/ready`).then((response) => response.ok, () => false)) || undefined;
      },
      30_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    configFile,
    log,
    stop,
    async query(expr) {
      const data = await api<{ resultType: string; result: VectorSample[] }>(`/api/v1/query?query=${encodeURIComponent(expr)}`);
      if (data.resultType !== 'vector') throw new Error(`${expr} is a ${data.resultType}, not an instant vector`);
      return data.result;
    },
    async alerts() {
      return (await api<{ alerts: { labels: Record<string, string>; state: 'pending' | 'firing'; value: string }[] }>('/api/v1/alerts')).alerts;
    },
    async waitForTargets(deadlineMs = 30_000) {
      await eventually(
        'every scrape target to be up',
        async () => {
          const { activeTargets } = await api<{ activeTargets: { health: string; scrapeUrl: string; lastError: string }[] }>('/api/v1/targets');
          const down = activeTargets.filter((target) => target.health !== 'up');
          return activeTargets.length > 0 && down.length === 0 ? true : undefined;
        },
        deadlineMs,
      );
    },
  };
}
