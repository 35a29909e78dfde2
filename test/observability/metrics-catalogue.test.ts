/**
 * The metric catalogue holds: docs/metrics.md and the registry name the same families with the same types,
 * labels and enumerated label values, both ways; and a fresh gateway's first scrape has every family, each
 * with its zero series — every failure counter at 0 for every operation, model, provider and outcome the
 * manifests and plugins make known — in an exposition that promtool accepts.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { allTools } from '../../src/mcp/tools/index.js';
import { projectRoot } from '../../src/kernel/config/index.js';
import {
  GatewayMetrics,
  backlogStates,
  finishOutcomes,
  poolStates,
  providerCallKinds,
  providerCallOutcomes,
  publishOutcomes,
  rateLimitBuckets,
  settleDirections,
  slotStates,
  sweeperActions,
  webhookOutcomes,
} from '../../src/kernel/observability/metrics.js';
import { fixtureManifestDir, fixturePluginDir } from '../support/fixtures.js';
import { Scrape, scrape } from '../support/metrics-scrape.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { readMetricCatalogue, type MetricFamily } from './metric-catalogue.js';
import { requirePromtool } from './dashboard-promtool.js';

/** The code's value sets of every label the catalogue enumerates, by family and label. */
const enumeratedInCode: Record<string, Record<string, readonly string[]>> = {
  mediagate_requests_finished_total: { outcome: finishOutcomes },
  mediagate_requests_backlog: { state: backlogStates },
  mediagate_requests_oldest_age_seconds: { state: backlogStates },
  mediagate_worker_slots: { state: slotStates },
  mediagate_provider_calls_total: { call: providerCallKinds, outcome: providerCallOutcomes },
  mediagate_webhook_deliveries_total: { outcome: webhookOutcomes },
  mediagate_credits_settled_total: { direction: settleDirections },
  mediagate_rate_limit_rejections_total: { bucket: rateLimitBuckets },
  mediagate_database_pool_connections: { state: poolStates },
  mediagate_broker_publishes_total: { outcome: publishOutcomes },
  mediagate_sweeper_actions_total: { action: sweeperActions },
};

/** Families whose series appear with their first request (their labels come from traffic). */
const seriesWithTraffic = new Set(['mediagate_http_requests_total', 'mediagate_http_request_duration_seconds', 'mediagate_mcp_messages_total']);

const relayFixtures = {
  manifests: fileURLToPath(new URL('../fixtures/routing/manifests', import.meta.url)),
  plugins: fileURLToPath(new URL('../fixtures/routing/plugins', import.meta.url)),
};

describe('metrics: the catalogue and a fresh gateway', () => {
  const catalogue: MetricFamily[] = readMetricCatalogue();

  it('docs/metrics.md and the registry name the same families, types and labels, both ways', async () => {
    const metrics = new GatewayMetrics();
    const registered = await metrics.registry.getMetricsAsJSON();
    const inCode = new Map(registered.map((metric) => [metric.name, { type: String(metric.type), labels: [...(metrics.registry.getSingleMetric(metric.name) as unknown as { labelNames: string[] }).labelNames] }]));
    const inDocs = new Map(catalogue.map((family) => [family.name, { type: family.type, labels: [...family.labels.keys()] }]));
    expect([...inDocs.keys()].filter((name) => !inCode.has(name)), 'documented but not registered').to.deep.equal([]);
    expect([...inCode.keys()].filter((name) => !inDocs.has(name)), 'registered but not documented').to.deep.equal([]);
    for (const [name, documented] of inDocs) expect(inCode.get(name), name).to.deep.equal(documented);
  });

  it("docs/metrics.md enumerates exactly the code's label values, both ways", () => {
    const documented: Record<string, Record<string, string[]>> = {};
    for (const family of catalogue) {
      for (const [label, values] of family.labels) if (values) (documented[family.name] ??= {})[label] = [...values].sort();
    }
    const inCode = Object.fromEntries(Object.entries(enumeratedInCode).map(([family, labels]) => [family, Object.fromEntries(Object.entries(labels).map(([label, values]) => [label, [...values].sort()]))]));
    expect(documented).to.deep.equal(inCode);
  });

  describe('the first scrape of a fresh embedded gateway', () => {
    let service: TestService;
    let fresh: Scrape;
    before(async () => {
      service = await startTestService({
        manifest_dirs: [fixtureManifestDir, relayFixtures.manifests],
        plugin_dirs: [fixturePluginDir, relayFixtures.plugins],
        providers: { 'relay-a': { api_key: 'key-a' }, 'relay-b': { api_key: 'key-b' } },
      });
      fresh = await scrape(`${service.url}/metrics`);
    });
    after(async () => service.stop());

    it('has every documented family with its type, and nothing undocumented', () => {
      for (const family of catalogue) expect(fresh.families.get(family.name)?.type, family.name).to.equal(family.type);
      expect([...fresh.families.keys()].filter((name) => !catalogue.some((family) => family.name === name))).to.deep.equal([]);
    });

    it('has series for every family whose labels are known at start, every counter and histogram at 0', () => {
      for (const family of catalogue.filter((each) => !seriesWithTraffic.has(each.name))) {
        expect(fresh.of(family.name), family.name).to.not.be.empty;
      }
      for (const name of seriesWithTraffic) expect(fresh.of(name), name).to.deep.equal([]);
      const counted = fresh.samples.filter((sample) => fresh.families.get(sample.name)?.type === 'counter' || /_(bucket|sum|count)$/.test(sample.name));
      expect(counted.filter((sample) => sample.value !== 0)).to.deep.equal([]);
    });

    it('zeroes every MCP tool\'s outcomes from the start', () => {
      const zeroed = fresh.of('mediagate_mcp_tool_calls_total').map((sample) => `${sample.labels.tool} ${sample.labels.outcome}`);
      expect(zeroed).to.have.length(allTools.length * 4);
      for (const tool of allTools) expect(zeroed, tool.name).to.include.members([`${tool.name} ok`, `${tool.name} tool_error`, `${tool.name} internal_error`, `${tool.name} unauthenticated`]);
    });

    it('zeroes every failure series the manifests and plugins make known', () => {
      const { registry, plugins } = service.service.gateway;
      for (const definition of registry.all()) {
        for (const model of Object.keys(definition.manifest.routing.models)) {
          expect(fresh.value('mediagate_requests_created_total', { operation: definition.name, model })).to.equal(0);
          for (const outcome of ['failed', 'cancelled']) expect(fresh.value('mediagate_requests_finished_total', { operation: definition.name, provider: 'none', model, outcome })).to.equal(0);
        }
        expect(fresh.value('mediagate_credits_refunded_total', { operation: definition.name })).to.equal(0);
      }
      for (const outcome of finishOutcomes) {
        expect(fresh.value('mediagate_requests_finished_total', { operation: 'test.echo', provider: 'scripted', model: 'echo-1', outcome })).to.equal(0);
        expect(fresh.value('mediagate_requests_finished_total', { operation: 'test.relay', provider: 'relay-b', model: 'relay-1', outcome })).to.equal(0);
      }
      // Calls by every kind the provider's handlers support, and no other kind.
      const callKinds = { scripted: ['start', 'status'], local: ['start'], 'relay-a': ['start'], 'relay-b': ['start'], 'stand-in': ['start'] };
      for (const [provider, calls] of Object.entries(callKinds)) {
        for (const call of providerCallKinds) {
          for (const outcome of providerCallOutcomes) {
            expect(fresh.sum('mediagate_provider_calls_total', { provider, call, outcome }), `${provider} ${call} ${outcome}`).to.equal(0);
            expect(fresh.of('mediagate_provider_calls_total').some((sample) => sample.labels.provider === provider && sample.labels.call === call && sample.labels.outcome === outcome)).to.equal(calls.includes(call));
          }
        }
        expect(fresh.value('mediagate_vendor_tasks_in_flight', { provider })).to.equal(0);
      }
      expect(fresh.labelValues('mediagate_provider_calls_total', 'provider')).to.deep.equal(new Set(Object.keys(callKinds)));
      // A fallback from the route's first provider to each later one.
      expect(fresh.of('mediagate_provider_fallbacks_total').filter((sample) => sample.labels.operation === 'test.relay').map((sample) => sample.labels)).to.deep.equal([
        { operation: 'test.relay', from_provider: 'relay-a', to_provider: 'stand-in' },
        { operation: 'test.relay', from_provider: 'relay-a', to_provider: 'relay-b' },
      ]);
      // Every loaded plugin's breaker, enabled or not (most vendors have no key here).
      expect(fresh.labelValues('mediagate_breaker_open', 'provider')).to.deep.equal(new Set(plugins.all().map((loaded) => loaded.plugin.id)));
      expect(fresh.sum('mediagate_breaker_open')).to.equal(0);
      for (const [family, labels] of Object.entries(enumeratedInCode)) {
        if (family === 'mediagate_provider_calls_total' || family === 'mediagate_requests_finished_total') continue;
        for (const [label, values] of Object.entries(labels)) expect(fresh.labelValues(family, label), `${family} ${label}`).to.deep.equal(new Set(values));
      }
    });

    it('states the build, the role and the live state of the process', () => {
      const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
      expect(fresh.of('mediagate_build_info').map((sample) => [sample.labels, sample.value])).to.deep.equal([[{ version, node_version: process.version, role: 'all' }, 1]]);
      expect(fresh.value('mediagate_worker_slots', { state: 'busy' })).to.equal(0);
      const { concurrency, poll_concurrency: pollConcurrency } = service.service.gateway.settings.worker;
      // Start jobs and vendor status polls have slots of their own (worker.concurrency + worker.poll_concurrency).
      expect(fresh.value('mediagate_worker_slots', { state: 'free' })).to.equal(concurrency + pollConcurrency);
      expect(fresh.value('mediagate_database_up')).to.equal(1);
      expect(fresh.of('mediagate_database_pool_connections').map((sample) => [sample.labels.state, sample.value])).to.deep.equal([['used', 1], ['free', 0], ['pending', 0]]);
      expect(fresh.value('mediagate_broker_connected')).to.equal(1);
      for (const state of backlogStates) {
        expect(fresh.value('mediagate_requests_backlog', { state })).to.equal(0);
        expect(fresh.value('mediagate_requests_oldest_age_seconds', { state })).to.equal(0);
      }
      expect(fresh.value('mediagate_webhook_outbox_backlog')).to.equal(0);
    });

    it('keeps the series count bounded (labels from manifests and plugins only)', () => {
      const { registry } = service.service.gateway;
      const operations = registry.all().length;
      const models = registry.all().reduce((sum, definition) => sum + Object.keys(definition.manifest.routing.models).length, 0);
      // The two request histograms (18 buckets + +Inf, _sum, _count) dominate: per operation, 3 outcomes and the queue wait.
      expect(fresh.of('mediagate_request_duration_seconds')).to.have.length(operations * 3 * 21);
      expect(fresh.of('mediagate_request_queue_wait_seconds')).to.have.length(operations * 21);
      expect(fresh.of('mediagate_requests_created_total')).to.have.length(models);
      expect(fresh.samples.filter((sample) => sample.name.startsWith('mediagate_')).length).to.be.below(3500);
    });

    it('is an exposition promtool accepts (names, suffixes, units, help)', async function () {
      requirePromtool(this);
      const checked = await runWithStdin('promtool', ['check', 'metrics'], fresh.text);
      expect(checked.stdout + checked.stderr).to.equal('');
      expect(checked.code).to.equal(0);
    });
  });
});

function runWithStdin(program: string, args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(program, args, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}
