/**
 * Parses dashboard queries with Prometheus' own parser. promtool has no "parse this query" command, so each query
 * becomes a recording rule (`check:panel_<id>_<refId>`) in a temporary rule file, one file per dashboard, and
 * `promtool check rules` reads them; its errors name the rule, which leads back to the dashboard, panel and query.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { type DashboardQuery } from '../support/dashboard-queries.js';

const run = promisify(execFile);

/** Debian's prometheus package puts promtool on PATH; .ci/run installs it. */
export function promtoolAvailable(): boolean {
  return !spawnSync('promtool', ['--version'], { stdio: 'ignore' }).error;
}

/** Skips the calling suite without promtool; in CI (CI set) that is a failure instead. */
export function requirePromtool(suite: Mocha.Context): void {
  if (promtoolAvailable()) return;
  if (process.env.CI) throw new Error('promtool is missing: .ci/run installs it (apt-get install -y prometheus)');
  suite.skip();
}

export function recordNameOf(query: DashboardQuery): string {
  return `check:panel_${query.panelId}_${query.refId}`;
}

/** One line per query promtool cannot parse, naming dashboard, panel and query; empty when all parse. */
export async function promtoolParseProblems(queries: DashboardQuery[]): Promise<string[]> {
  const folder = await mkdtemp(join(tmpdir(), 'mediagate-dashboard-promql-'));
  try {
    const byFile = new Map<string, DashboardQuery[]>();
    for (const query of queries) byFile.set(query.file, [...(byFile.get(query.file) ?? []), query]);
    const problems: string[] = [];
    for (const [file, fileQueries] of byFile) {
      const rulesPath = join(folder, file.replace(/\.json$/, '.rules.yaml'));
      const rules = fileQueries.map((query) => ({ record: recordNameOf(query), expr: query.expr }));
      await writeFile(rulesPath, stringify({ groups: [{ name: fileQueries[0].dashboardUid || file, rules }] }));
      const output = await run('promtool', ['check', 'rules', rulesPath]).then(
        () => undefined,
        (error: { code?: number; stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
      );
      if (output === undefined) continue;
      const failing = new Map<string, string>();
      // e.g. `/tmp/.../overview.rules.yaml: 5:15: group "g", rule 1, "check:panel_3_A": could not parse expression: 1:16: parse error: ...`
      for (const match of output.matchAll(/rule \d+, "([^"]+)": (.+)$/gm)) failing.set(match[1], match[2]);
      if (failing.size === 0) {
        problems.push(`${file}: promtool check rules failed: ${output.trim()}`);
        continue;
      }
      for (const query of fileQueries) {
        const error = failing.get(recordNameOf(query));
        if (error) problems.push(`${query.dashboard} (${file}), panel ${query.panelId} "${query.panel}", query ${query.refId}: ${error}\n  expr: ${query.template}`);
      }
    }
    return problems;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
