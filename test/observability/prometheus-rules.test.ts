/**
 * The gateway's Prometheus rules (prometheus/rules/) and example configuration, checked by promtool and against
 * what they refer to: the metric catalogue (docs/metrics.md), the runbooks and the operations guide, and the
 * manifests whose timings the stale-request thresholds must exceed. The promtool unit tests (prometheus/tests/)
 * must pass, cover every alert both firing and not firing, and fail when an alert is broken either way.
 */
import { expect } from 'chai';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { loadSettings, projectRoot } from '../../src/kernel/config/index.js';
import { loadManifests } from '../../src/kernel/manifests/index.js';
import { prometheusFolder, promtool, readRuleFile, requirePrometheusTools, ruleFiles, rulesOf, withoutThresholds, type Rule } from '../support/prometheus-server.js';
import { readMetricCatalogue, seriesIndex } from './metric-catalogue.js';
import { promqlReferences } from './promql-references.js';

const [recordingFile, alertsFile] = ruleFiles;
const testsFolder = join(prometheusFolder, 'tests');
const testFiles = readdirSync(testsFolder).filter((file) => file.endsWith('.yaml')).sort();
const alerts = rulesOf(readRuleFile(alertsFile)).filter((rule) => rule.alert);
const recordings = rulesOf(readRuleFile(recordingFile)).filter((rule) => rule.record);
const alertNames = [...new Set(alerts.map((rule) => rule.alert!))];
const runbooks = readFileSync(join(projectRoot, 'docs/runbooks.md'), 'utf8');
const operations = readFileSync(join(projectRoot, 'docs/operations.md'), 'utf8');

interface AlertTestCase {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}

/** Every alert_rule_test case of prometheus/tests/, with the file it is in. */
function alertTestCases(): (AlertTestCase & { file: string })[] {
  return testFiles.flatMap((file) => {
    const tests = (parse(readFileSync(join(testsFolder, file), 'utf8')) as { tests: { alert_rule_test?: AlertTestCase[] }[] }).tests;
    return tests.flatMap((test) => (test.alert_rule_test ?? []).map((testCase) => ({ ...testCase, file })));
  });
}

/** promtool's failures of alert test cases: which alert, and whether the case expected it silent (`exp:[]`). */
function alertFailures(output: string): { alertname: string; expectedSilent: boolean }[] {
  return [...output.matchAll(/alertname: (\w+), time: [^\n]*\n\s*exp:(\[\]|\[)/g)].map((match) => ({ alertname: match[1], expectedSilent: match[2] === '[]' }));
}

/**
 * Runs the unit tests against a copy of the rules in which every alert's expression is replaced by `mutate(rule)`,
 * and returns promtool's output (the tests find the rules at ../rules/, as in the repository).
 */
async function unitTestsAgainst(mutate: (rule: Rule) => string): Promise<{ code: number; output: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'mediagate-rules-mutant-'));
  try {
    await mkdir(join(folder, 'rules'));
    await mkdir(join(folder, 'tests'));
    await copyFile(recordingFile, join(folder, 'rules', basename(recordingFile)));
    const file = readRuleFile(alertsFile);
    for (const group of file.groups) for (const rule of group.rules) rule.expr = mutate(rule);
    await writeFile(join(folder, 'rules', basename(alertsFile)), stringify(file));
    for (const test of testFiles) await copyFile(join(testsFolder, test), join(folder, 'tests', test));
    const result = await promtool(['test', 'rules', ...testFiles], { cwd: join(folder, 'tests') });
    return { code: result.code, output: result.stdout + result.stderr };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** `## Heading` sections of a Markdown page, by heading text. */
function sections(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  const parts = markdown.split(/^## /m).slice(1);
  for (const part of parts) {
    const newline = part.indexOf('\n');
    found.set(part.slice(0, newline).trim(), part.slice(newline + 1));
  }
  return found;
}

describe('Prometheus rules and their unit tests (prometheus/)', function () {
  this.timeout(120_000);

  it('have a unit test in which each alert fires and one in which it does not', () => {
    const cases = alertTestCases();
    for (const name of alertNames) {
      const own = cases.filter((testCase) => testCase.alertname === name);
      expect(own.filter((testCase) => (testCase.exp_alerts ?? []).length > 0), `a test where ${name} fires`).to.not.be.empty;
      expect(own.filter((testCase) => (testCase.exp_alerts ?? []).length === 0), `a test where ${name} stays silent`).to.not.be.empty;
    }
    for (const testCase of cases) expect(alertNames, `${testCase.file} tests an alert that does not exist`).to.include(testCase.alertname);
    // Both severities of a multi-burn-rate alert are expected somewhere.
    const expectedSeverities = new Set(cases.flatMap((testCase) => (testCase.exp_alerts ?? []).map((alert) => `${testCase.alertname}/${(alert as { exp_labels: { severity: string } }).exp_labels.severity}`)));
    for (const rule of alerts) expect([...expectedSeverities]).to.include(`${rule.alert}/${rule.labels!.severity}`);
  });

  it('give every alert a severity, a summary, a description naming what fired and a runbook section', () => {
    const runbookSections = sections(runbooks);
    for (const rule of alerts) {
      const name = rule.alert!;
      expect(rule.labels?.severity, name).to.be.oneOf(['critical', 'warning']);
      expect(rule.annotations?.summary, name).to.match(/^[A-Z].*\.$/);
      // An absent() alert has no labels and a constant value to name.
      if (!rule.expr.trim().startsWith('absent(')) expect(rule.annotations?.description, name).to.match(/\$labels\.\w+|\$value/);
      expect(rule.annotations?.runbook_url, name).to.equal(`https://mediagate.dev/docs/runbooks#${name.toLowerCase()}`);
      const section = runbookSections.get(name);
      expect(section, `docs/runbooks.md has a section "## ${name}"`).to.be.a('string');
      for (const part of ['**What it means.**', '**How to look.**', '**What to do.**']) expect(section, `${name}: ${part}`).to.contain(part);
    }
    expect([...runbookSections.keys()].sort()).to.deep.equal([...alertNames].sort());
    for (const name of alertNames) expect(operations, `docs/operations.md names ${name}`).to.contain(`\`${name}\``);
  });

  it('read only catalogue metrics, with their documented labels and values, and recording rules that exist', () => {
    const catalogue = seriesIndex(readMetricCatalogue());
    const recorded = new Set(recordings.map((rule) => rule.record!));
    // Labels every scraped series has (the target's) and the bucket bound of a histogram's _bucket series.
    const targetLabels = new Set(['job', 'instance']);
    for (const rule of [...recordings, ...alerts]) {
      const what = rule.record ?? rule.alert!;
      const references = promqlReferences(rule.expr);
      expect(references.problems, what).to.deep.equal([]);
      for (const selector of references.selectors) {
        if (selector.metric === 'up') continue;
        if (recorded.has(selector.metric)) {
          for (const matcher of selector.matchers) expect(['slo'], `${what}: ${selector.metric}{${matcher.label}}`).to.include(matcher.label);
          continue;
        }
        const family = catalogue.get(selector.metric);
        expect(family, `${what} reads ${selector.metric}, which docs/metrics.md does not list`).to.not.equal(undefined);
        for (const matcher of selector.matchers) {
          if (targetLabels.has(matcher.label) || (matcher.label === 'le' && selector.metric.endsWith('_bucket'))) continue;
          expect(family!.labels.has(matcher.label), `${what}: ${selector.metric} has no label ${matcher.label}`).to.equal(true);
          const documented = family!.labels.get(matcher.label);
          if (!documented) continue;
          const values = matcher.op === '=' || matcher.op === '!=' ? [matcher.value] : matcher.value.split('|');
          for (const value of values) expect(documented, `${what}: ${selector.metric}{${matcher.label}} value ${value}`).to.include(value);
        }
      }
      for (const label of references.byLabels) {
        // And `le`, which histogram_quantile needs: a histogram's bucket bounds, not a dimension of their own.
        expect(['provider', 'operation', 'call', 'slo', 'le'], `${what} aggregates by ${label}`).to.include(label);
      }
    }
    // The SLI windows the alerts read are all recorded, for each SLO they name.
    const slis = new Set(recordings.map((rule) => `${rule.record}{slo="${rule.labels?.slo}"}`));
    for (const rule of alerts) {
      for (const match of rule.expr.matchAll(/(mediagate:slo_errors:ratio_rate\w+)\{slo="([a-z-]+)"\}/g)) expect([...slis], rule.alert).to.include(`${match[1]}{slo="${match[2]}"}`);
    }
  });

  it("hold the stale-request thresholds above the manifests' give-up times and the sweeper's requeue", async () => {
    const threshold = (name: string) => Number(/>\s*(\d+)\s*$/.exec(alerts.find((rule) => rule.alert === name)!.expr.trim())![1]);
    const manifests = await loadManifests([join(projectRoot, 'manifests/operations')]);
    // A processing request is failed at the first poll after its give-up time.
    const latestFailure = Math.max(
      ...manifests.map(({ manifest: { polling } }) =>
        polling.give_up_after_ms + Math.max(polling.max_every_ms, ...Object.values(polling.providers ?? {}).map((override) => override.max_every_ms ?? 0)),
      ),
    );
    expect(threshold('MediagateProcessingStale') * 1000).to.be.greaterThan(latestFailure);
    // A request nobody picked up is re-published after requeue_after_ms, found by a sweep: ten of those rounds.
    const { worker } = loadSettings({ env: {} });
    expect(threshold('MediagateBacklogStale') * 1000).to.be.at.least(10 * (worker.requeue_after_ms + worker.sweep_interval_ms));
  });

  describe('with promtool', () => {
    before(async function () {
      await requirePrometheusTools(this);
    });

    it('are accepted by promtool, like the example configuration that loads them', async () => {
      const rules = await promtool(['check', 'rules', ...ruleFiles]);
      expect(rules.code, rules.stdout + rules.stderr).to.equal(0);
      expect(rules.stdout).to.contain(`SUCCESS: ${recordings.length} rules found`);
      expect(rules.stdout).to.contain(`SUCCESS: ${alerts.length} rules found`);
      const config = await promtool(['check', 'config', join(prometheusFolder, 'prometheus.yml')]);
      expect(config.code, config.stdout + config.stderr).to.equal(0);
      expect(config.stdout).to.contain('SUCCESS: 2 rule files found');
    });

    it('pass every promtool unit test in prometheus/tests', async () => {
      expect(testFiles).to.include.members(['processes.yaml', 'slo.yaml', 'slo-slow-burn.yaml', 'pipeline.yaml', 'dependencies.yaml']);
      const result = await promtool(['test', 'rules', ...testFiles], { cwd: testsFolder });
      expect(result.code, result.stdout + result.stderr).to.equal(0);
      expect(result.stdout.match(/SUCCESS/g)).to.have.length(testFiles.length);
    });

    it('fail their unit tests when an alert can no longer fire, and when it fires without its threshold', async () => {
      const [silenced, unguarded] = await Promise.all([unitTestsAgainst(() => 'vector(1) < 0'), unitTestsAgainst((rule) => withoutThresholds(rule.expr))]);
      expect(silenced.code).to.not.equal(0);
      const missedFirings = new Set(alertFailures(silenced.output).filter((failure) => !failure.expectedSilent).map((failure) => failure.alertname));
      expect([...missedFirings].sort()).to.deep.equal([...alertNames].sort());

      expect(unguarded.code).to.not.equal(0);
      const falseFirings = new Set(alertFailures(unguarded.output).filter((failure) => failure.expectedSilent).map((failure) => failure.alertname));
      expect([...falseFirings].sort()).to.deep.equal([...alertNames].sort());
    });

    it('take thresholds out of an expression, leaving the series it watches', async () => {
      expect(withoutThresholds('up{job=~"mediagate-api|mediagate-worker"} == 0')).to.equal('up{job=~"mediagate-api|mediagate-worker"} == bool 0');
      expect(withoutThresholds('absent(mediagate_build_info{role=~"api|all"})')).to.equal('(mediagate_build_info{role=~"api|all"})');
      expect(withoutThresholds('a{x!="y", z=">"} > 0.25 and b >= bool 10')).to.equal('a{x!="y", z=">"} > bool 0.25 and b >= bool 10');
      // Every transformed alert expression is still valid PromQL.
      const folder = await mkdtemp(join(tmpdir(), 'mediagate-rules-series-'));
      try {
        const file = join(folder, 'series.yaml');
        await writeFile(file, stringify({ groups: [{ name: 'series', rules: alerts.map((rule, index) => ({ record: `series:alert_${index}`, expr: withoutThresholds(rule.expr) })) }] }));
        const result = await promtool(['check', 'rules', file]);
        expect(result.code, result.stdout + result.stderr).to.equal(0);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });
  });
});
