/**
 * One process, two registries: with the embedded worker on a thread of its own, the HTTP thread's `/metrics` serves
 * its own families and the worker thread's (worker-thread/), added up family by family. Counters and histograms
 * sum; the gauges both threads set combine as their `aggregator` says (one build, a breaker open on either thread,
 * the broker up only when both say so), and each family appears once, in an exposition Prometheus reads.
 */
import { expect } from 'chai';
import { GatewayMetrics, type LiveSources } from '../../src/kernel/observability/metrics.js';
import { Scrape } from '../support/metrics-scrape.js';

const build = { version: '0.1.0', nodeVersion: process.version, role: 'all' as const };
const live = (over: Partial<LiveSources>): LiveSources => ({
  breakers: () => [['scripted', false]],
  databaseConnections: () => ({ used: 1, free: 0, pending: 0 }),
  brokerConnected: () => true,
  workerSlots: () => undefined,
  ...over,
});

describe("the worker thread's metrics served with the HTTP thread's", () => {
  it('adds up counters and histograms, takes gauges set by both by their aggregator, and lists each family once', async () => {
    const http = new GatewayMetrics({ build });
    const worker = new GatewayMetrics({ build });
    http.observeLive(live({}));
    worker.observeLive(live({ breakers: () => [['scripted', true]], brokerConnected: () => false, workerSlots: () => ({ busy: 3, free: 13 }) }));
    http.requestCreated('test.echo', 'echo-1', 2);
    http.requestCreated('test.echo', 'echo-1', 2);
    http.httpAnswered('POST', '/api/v1/requests', '202', 0.004);
    worker.providerCall('scripted', 'start', 'ok', 0.02);
    worker.providerCall('scripted', 'start', 'ok', 0.3);
    http.providerCall('scripted', 'cancel', 'ok', 0.01);
    // The snapshot crosses between threads by structured clone: nothing in it may be a function.
    http.includeFrom(async () => structuredClone(await worker.snapshot()));

    const text = await http.exposition();
    const served = new Scrape(text);
    expect(served.value('mediagate_requests_created_total', { operation: 'test.echo', model: 'echo-1' })).to.equal(2);
    expect(served.value('mediagate_provider_calls_total', { provider: 'scripted', call: 'start', outcome: 'ok' })).to.equal(2);
    expect(served.value('mediagate_provider_calls_total', { provider: 'scripted', call: 'cancel', outcome: 'ok' })).to.equal(1);
    expect(served.value('mediagate_provider_call_duration_seconds_count', { provider: 'scripted', call: 'start' })).to.equal(2);
    expect(served.value('mediagate_provider_call_duration_seconds_sum', { provider: 'scripted', call: 'start' })).to.be.closeTo(0.32, 1e-9);
    expect(served.value('mediagate_provider_call_duration_seconds_bucket', { provider: 'scripted', call: 'start', le: '+Inf' })).to.equal(2);
    expect(served.value('mediagate_http_requests_total', { method: 'POST', route: '/api/v1/requests', status: '202' })).to.equal(1);
    expect(served.of('mediagate_build_info')).to.have.length(1);
    expect(served.value('mediagate_build_info')).to.equal(1);
    expect(served.value('mediagate_breaker_open', { provider: 'scripted' }), 'open on the worker thread').to.equal(1);
    expect(served.value('mediagate_broker_connected'), 'down as the worker thread sees it').to.equal(0);
    expect(served.value('mediagate_database_pool_connections', { state: 'used' })).to.equal(2);
    expect(served.value('mediagate_worker_slots', { state: 'busy' })).to.equal(3);
    for (const family of ['mediagate_requests_created_total', 'mediagate_provider_calls_total', 'mediagate_build_info']) {
      expect(text.split('\n').filter((line) => line === `# TYPE ${family} ${served.families.get(family)!.type}`), family).to.have.length(1);
    }
  });

  it('serves its own registry alone when no thread is included, or when the thread answers with nothing', async () => {
    const http = new GatewayMetrics({ build });
    http.requestCreated('test.echo', 'echo-1', 2);
    expect(await http.exposition()).to.equal(await http.registry.metrics());
    http.includeFrom(async () => []);
    expect(new Scrape(await http.exposition()).value('mediagate_requests_created_total', { operation: 'test.echo' })).to.equal(1);
  });
});
