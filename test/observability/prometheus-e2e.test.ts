/**
 * The observability stack end to end: a real Prometheus (Debian's package, on a free loopback port, storage in a
 * temp folder, configured from prometheus/prometheus.yml) scrapes the gateway every second and evaluates the
 * gateway's rules every second, first the embedded gateway (start all), then the production topology (API and
 * worker processes on MariaDB and RabbitMQ). Under traffic with successes, vendor failures and fallbacks, refused
 * creates, a cancel, webhooks and MCP calls, every Grafana panel query and every recording and alert expression
 * (the alerts' without their thresholds) must return data; then injected faults must fire their alerts: a vendor
 * that keeps failing opens its breaker (MediagateBreakerOpen), a stopped worker leaves the backlog to age
 * (MediagateWorkerDown, MediagateBacklogStale, MediagateTargetDown). Alerts fire from a copy of the rules with
 * every `for` at 0 and the backlog threshold in seconds; the rules themselves are the repository's.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { dashboardQueries } from '../support/dashboard-queries.js';
import { fixtureManifestDir, fixturePluginDir } from '../support/fixtures.js';
import { startLoopbackVendor, type LoopbackVendor, type ReceivedRequest, type VendorReply } from '../support/loopback-vendor.js';
import { rawToolCall } from '../support/mcp-tool-call.js';
import { api, ProcessTopology, waitForTerminal, type ManagedProcess } from '../support/process-topology.js';
import { readRuleFile, requirePrometheusTools, ruleFiles, rulesOf, startPrometheus, withoutThresholds, type RunningPrometheus } from '../support/prometheus-server.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const [recordingFile, alertsFile] = ruleFiles;
const relayManifests = fileURLToPath(new URL('../fixtures/routing/manifests', import.meta.url));
const relayPlugins = fileURLToPath(new URL('../fixtures/routing/plugins', import.meta.url));

/** prom-client's process and Node.js metrics: `mediagate start` collects them, an embedded test service does not. */
const processMetric = /\b(process|nodejs)_[a-z_]+/;

interface Check {
  what: string;
  expr: string;
}

/**
 * Every query the gateway's observability runs: the dashboards' panels (with `$__rate_interval` at 10 s, ten
 * scrapes), the recording rules, and each alert's expression without its threshold, i.e. the series it watches.
 */
function everyQuery(): Check[] {
  const panels = dashboardQueries({ rateInterval: '10s' }).map((query) => ({ what: `${query.file} "${query.panel}" ${query.refId}`, expr: query.expr }));
  const recordings = rulesOf(readRuleFile(recordingFile)).map((rule) => ({ what: `recording rule ${rule.record} ${JSON.stringify(rule.labels ?? {})}`, expr: rule.expr }));
  const alerts = rulesOf(readRuleFile(alertsFile)).map((rule) => ({ what: `alert ${rule.alert} (${rule.labels?.severity})`, expr: withoutThresholds(rule.expr) }));
  return [...panels, ...recordings, ...alerts];
}

/** Polls until every check returns a non-empty vector, then returns those that still do not (none, or the failures). */
async function checksWithoutData(prometheus: RunningPrometheus, checks: Check[], deadlineMs: number): Promise<string[]> {
  const until = performance.now() + deadlineMs;
  let pending = checks;
  for (;;) {
    const results = await Promise.all(pending.map(async (check) => ({ check, samples: await prometheus.query(check.expr) })));
    pending = results.filter((result) => result.samples.length === 0).map((result) => result.check);
    if (pending.length === 0 || performance.now() > until) return pending.map((check) => `${check.what}: ${check.expr}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Waits until every rule of every group has been evaluated without an error. */
async function expectHealthyRules(prometheus: RunningPrometheus): Promise<void> {
  const until = performance.now() + 20_000;
  for (;;) {
    const response = await fetch(`${prometheus.url}/api/v1/rules`);
    const { data } = (await response.json()) as { data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] } };
    const rules = data.groups.flatMap((group) => group.rules);
    const unhealthy = rules.filter((rule) => rule.health !== 'ok').map((rule) => `${rule.name}: ${rule.health} ${rule.lastError ?? ''}`);
    if (unhealthy.length === 0) {
      expect(rules.length).to.equal(rulesOf(readRuleFile(recordingFile)).length + rulesOf(readRuleFile(alertsFile)).length);
      return;
    }
    if (performance.now() > until) expect(unhealthy, 'rules Prometheus could not evaluate').to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A copy of the alert rules that fires at once: every `for` at 0 s and the backlog age threshold at 2 s. */
async function quickAlerts(folder: string): Promise<string> {
  const file = readRuleFile(alertsFile);
  for (const rule of file.groups.flatMap((group) => group.rules)) {
    if (rule.for) rule.for = '0s';
    if (rule.alert === 'MediagateBacklogStale') {
      const shortened = rule.expr.replace(/> 300$/, '> 2');
      expect(shortened, 'MediagateBacklogStale still ends in "> 300"').to.not.equal(rule.expr);
      rule.expr = shortened;
    }
  }
  const path = join(folder, 'quick-alerts.yaml');
  await writeFile(path, stringify(file));
  return path;
}

/** Label sets of the alerts firing now, as `Name{label="value",...}` without severity. */
async function firing(prometheus: RunningPrometheus, alertname: string): Promise<Record<string, string>[]> {
  return (await prometheus.query(`ALERTS{alertname="${alertname}", alertstate="firing"}`)).map((sample) => sample.metric);
}

async function eventuallyFiring(prometheus: RunningPrometheus, alertname: string, labels: Record<string, string> = {}, deadlineMs = 30_000): Promise<void> {
  const until = performance.now() + deadlineMs;
  for (;;) {
    const alerts = await firing(prometheus, alertname);
    if (alerts.some((alert) => Object.entries(labels).every(([name, value]) => alert[name] === value))) return;
    if (performance.now() > until) throw new Error(`${alertname} ${JSON.stringify(labels)} did not fire within ${deadlineMs} ms; firing: ${JSON.stringify(await prometheus.alerts())}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Cancels, retrying while the request is between states (409), as a client would; returns the final status. */
async function cancel(call: () => Promise<{ status: number }>): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const { status } = await call();
    if (status !== 409 || attempt === 50) return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * One loopback server for every outside party: the relay vendors (relay-a always overloaded, relay-b answering),
 * OpenAI's chat completions (always overloaded), and webhook receivers (/hooks/ok answers, /hooks/broken fails).
 */
function answerEveryone(request: ReceivedRequest): VendorReply {
  if (request.path === '/hooks/ok') return { status: 204 };
  if (request.path === '/hooks/broken') return { status: 500, json: { error: 'receiver broken' } };
  if (request.path === '/v1/relay' && request.headers.authorization === 'Bearer key-b') return { status: 200, json: { text: `relayed: ${JSON.parse(request.body).message}` } };
  return { status: 503, json: { error: { message: 'overloaded', type: 'server_error' } } };
}

describe('a real Prometheus scraping the gateway, with its rules and dashboards', function () {
  this.timeout(180_000);
  let outside: LoopbackVendor;
  let folder: string;
  before(async function () {
    await requirePrometheusTools(this);
    outside = await startLoopbackVendor();
    outside.answer(answerEveryone);
    folder = await mkdtemp(join(tmpdir(), 'mediagate-prometheus-e2e-'));
  });
  after(async () => {
    await outside?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  describe('the embedded gateway (start all)', () => {
    let service: TestService;
    let prometheus: RunningPrometheus;
    before(async () => {
      service = await startTestService({
        manifest_dirs: [fixtureManifestDir, relayManifests],
        plugin_dirs: [fixturePluginDir, relayPlugins],
        providers: { 'relay-a': { api_key: 'key-a', base_url: outside.url }, 'relay-b': { api_key: 'key-b', base_url: outside.url } },
        outbound: { allow_hosts: ['127.0.0.1'] },
        // Two failed calls open relay-a's breaker, and it stays open for the rest of the test.
        breaker: { volume_threshold: 2, reset_timeout_ms: 600_000 },
        webhooks: { poll_interval_ms: 50, retry_schedule_ms: [100, 100], timeout_ms: 1000 },
        rate_limits: { creates_per_minute: 4 },
        metrics: { refresh_interval_ms: 250 },
      });
      prometheus = await startPrometheus({
        jobs: [{ job: 'mediagate-api', targets: [new URL(service.url).host] }],
        ruleFiles: [recordingFile, await quickAlerts(folder)],
      });
      await prometheus.waitForTargets();
    });
    after(async () => {
      await prometheus?.stop();
      await service?.stop();
    });

    /** A fresh client (own key, so the 4 creates a minute of the rate limit are its own) making one create. */
    async function create(body: Record<string, unknown>, options: { credits?: number; headers?: Record<string, string> } = {}) {
      const { key } = await service.createKey({ credits: options.credits ?? 100 });
      const response = await service.api('POST', '/api/v1/requests', { key, body, headers: options.headers });
      return { key, response };
    }

    it('answers every dashboard query and every rule expression with data under mixed traffic', async () => {
      const echo = (input: Record<string, unknown>, extra: Record<string, unknown> = {}) => create({ operation: 'test.echo', input: { message: 'hello', ...input }, ...extra });
      const accepted = [
        await echo({}),
        await echo({ script: { outcome: 'failed' } }),
        await echo({ script: { pending: 2 } }),
        await echo({}, { webhook_url: `${outside.url}/hooks/ok` }),
        await echo({}, { webhook_url: `${outside.url}/hooks/broken` }),
        // relay-a answers 503 every time: each request falls back, and the second failure opens relay-a's breaker.
        await create({ operation: 'test.relay', input: { message: 'one' } }),
        await create({ operation: 'test.relay', input: { message: 'two' } }),
        await create({ operation: 'test.relay', input: { message: 'three' } }),
      ];
      for (const { response } of accepted) expect(response.status, JSON.stringify(response.body)).to.equal(202);
      for (const { key, response } of accepted) await pollUntilTerminal(service, key, response.body.id);

      const waited = await create({ operation: 'test.echo', input: { message: 'wait for me' } }, { headers: { prefer: 'wait=20' } });
      expect(waited.response.status).to.equal(200);
      const cancelled = await create({ operation: 'test.echo', input: { message: 'never done', script: { pending: 100_000 } } });
      expect(cancelled.response.status).to.equal(202);
      expect(await cancel(() => service.api('POST', `/api/v1/requests/${cancelled.response.body.id}/cancel`, { key: cancelled.key }))).to.equal(200);
      // Refused creates: no credits (402), then a client over its rate limit (429).
      expect((await create({ operation: 'test.echo', input: { message: 'broke' } }, { credits: 0 })).response.status).to.equal(402);
      // Estimates count against the create limit (4 a minute) without creating anything. The windows are whole
      // minutes, so a run that crosses one needs up to four more calls.
      const { key: busy } = await service.createKey({ credits: 100 });
      const statuses: number[] = [];
      while (!statuses.includes(429) && statuses.length < 9) statuses.push((await service.api('POST', '/api/v1/estimates', { key: busy, body: { operation: 'test.echo', input: { message: 'how much' } } })).status);
      expect(statuses.at(-1)).to.equal(429);
      expect(statuses.slice(0, -1).every((status) => status === 200), String(statuses)).to.equal(true);
      const mcp = await rawToolCall(`${service.url}/mcp`, '', 'get_model_availability', { operation: 'test.relay' });
      expect(mcp.status).to.equal(200);
      // A processing request for the backlog and vendor-task gauges, left running.
      const running = await create({ operation: 'test.echo', input: { message: 'still going', script: { pending: 100_000 } } });
      expect(running.response.status).to.equal(202);

      const checks = everyQuery().filter((check) => !processMetric.test(check.expr));
      expect(checks.length).to.be.greaterThan(60);
      expect(await checksWithoutData(prometheus, checks, 30_000)).to.deep.equal([]);
      await expectHealthyRules(prometheus);
    });

    it('fires MediagateBreakerOpen for the vendor that keeps failing, and no process alert for a start-all process', async () => {
      await eventuallyFiring(prometheus, 'MediagateBreakerOpen', { provider: 'relay-a', severity: 'warning' });
      expect((await firing(prometheus, 'MediagateBreakerOpen')).map((alert) => alert.provider)).to.deep.equal(['relay-a']);
      for (const alertname of ['MediagateApiDown', 'MediagateWorkerDown', 'MediagateTargetDown', 'MediagateDatabaseDown', 'MediagateBrokerDown']) {
        expect(await firing(prometheus, alertname), alertname).to.deep.equal([]);
      }
    });
  });

  describe('the production topology (API and worker processes on MariaDB and RabbitMQ)', () => {
    let topology: ProcessTopology;
    let prometheus: RunningPrometheus;
    let apiProcess: ManagedProcess;
    let worker: ManagedProcess;
    let key: string;
    before(async function () {
      topology = await ProcessTopology.create(this, {
        MEDIAGATE_MANIFEST_DIRS: fixtureManifestDir,
        MEDIAGATE_PLUGIN_DIRS: fixturePluginDir,
        MEDIAGATE_PROVIDER_OPENAI_API_KEY: 'sk-test-not-real',
        MEDIAGATE_PROVIDER_OPENAI_BASE_URL: outside.url,
        MEDIAGATE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      });
      key = await topology.createKey(10_000);
      apiProcess = await topology.start('api');
      worker = await topology.start('worker');
      prometheus = await startPrometheus({
        jobs: [
          { job: 'mediagate-api', targets: [`127.0.0.1:${apiProcess.port}`] },
          { job: 'mediagate-worker', targets: [`127.0.0.1:${worker.port}`] },
        ],
        ruleFiles: [recordingFile, await quickAlerts(folder)],
      });
      await prometheus.waitForTargets();
    });
    after(async () => {
      await prometheus?.stop();
      await topology?.stop();
    });

    const create = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const response = await fetch(`${apiProcess.url}/api/v1/requests`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as any };
    };

    it('answers every dashboard query and every rule expression with data under mixed traffic', async () => {
      const echo = (input: Record<string, unknown>, extra: Record<string, unknown> = {}) => create({ operation: 'test.echo', input: { message: 'hello', ...input }, ...extra });
      const accepted = [
        await echo({}),
        await echo({ script: { outcome: 'failed' } }),
        await echo({ script: { pending: 2 } }),
        await echo({}, { webhook_url: `${outside.url}/hooks/ok` }),
        await echo({}, { webhook_url: `${outside.url}/hooks/broken` }),
        // OpenAI answers 503 every time: the local plugin stands in (synthetic fallback is on outside production's profile).
        await create({ operation: 'prompt.enhance.image', input: { prompt: 'a red fox' } }),
        await create({ operation: 'prompt.enhance.image', input: { prompt: 'a blue whale' } }),
      ];
      for (const response of accepted) expect(response.status, JSON.stringify(response.body)).to.equal(202);
      const finished = await waitForTerminal(apiProcess.url, key, accepted.map((response) => response.body.id), 60_000);
      expect([...finished.values()].filter((request) => request.output?.provider === 'local')).to.have.length(2);

      expect((await create({ operation: 'test.echo', input: { message: 'waited' } }, { prefer: 'wait=20' })).status).to.equal(200);
      const cancelled = await create({ operation: 'test.echo', input: { message: 'never done', script: { pending: 100_000 } } });
      expect(await cancel(() => api(apiProcess.url, key, 'POST', `/api/v1/requests/${cancelled.body.id}/cancel`))).to.equal(200);
      const broke = await topology.createKey(0);
      expect((await api(apiProcess.url, broke, 'POST', '/api/v1/requests', { operation: 'test.echo', input: { message: 'broke' } })).status).to.equal(402);
      expect((await rawToolCall(`${apiProcess.url}/mcp`, '', 'get_model_availability', { operation: 'test.echo' })).status).to.equal(200);
      expect((await create({ operation: 'test.echo', input: { message: 'still going', script: { pending: 100_000 } } })).status).to.equal(202);

      const checks = everyQuery();
      expect(checks.length).to.be.greaterThan(60);
      expect(await checksWithoutData(prometheus, checks, 40_000)).to.deep.equal([]);
      await expectHealthyRules(prometheus);
    });

    it('fires MediagateWorkerDown, MediagateTargetDown and MediagateBacklogStale once the only worker is stopped', async () => {
      expect(await firing(prometheus, 'MediagateWorkerDown')).to.deep.equal([]);
      expect(await firing(prometheus, 'MediagateBacklogStale')).to.deep.equal([]);
      await topology.kill(worker);
      const queued = await create({ operation: 'test.echo', input: { message: 'nobody will take me' } });
      expect(queued.status).to.equal(202);
      await eventuallyFiring(prometheus, 'MediagateWorkerDown', { severity: 'critical' });
      await eventuallyFiring(prometheus, 'MediagateTargetDown', { job: 'mediagate-worker', instance: `127.0.0.1:${worker.port}` });
      await eventuallyFiring(prometheus, 'MediagateBacklogStale', { state: 'queued', severity: 'critical' });
      expect(await firing(prometheus, 'MediagateApiDown')).to.deep.equal([]);
    });
  });
});
