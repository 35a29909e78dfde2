/**
 * The Grafana dashboards in grafana/dashboards/ and their provisioning: a structural lint of every dashboard against
 * the metric catalogue (docs/metrics.md), every panel query parsed by promtool, and provisioning files that point
 * Grafana at the folder the way grafana/README.md and the README say. Each check is also shown failing on a broken
 * copy, so a lint that stopped looking would be noticed.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { projectRoot } from '../../src/kernel/config/index.js';
import { dashboardQueries, dashboardsFolder, loadDashboards, queriesOf, type GrafanaDashboard, type GrafanaPanel } from '../support/dashboard-queries.js';
import { lintDashboard, type LintContext } from './dashboard-lint.js';
import { promtoolParseProblems, requirePromtool } from './dashboard-promtool.js';
import { defaultProcessMetrics, readMetricCatalogue, seriesIndex, type MetricFamily } from './metric-catalogue.js';
import { promqlReferences } from './promql-references.js';

const expectedDashboards = {
  'overview.json': { uid: 'mediagate-overview', title: 'MediaGate / Overview' },
  'pipeline.json': { uid: 'mediagate-pipeline', title: 'MediaGate / Pipeline' },
  'providers.json': { uid: 'mediagate-providers', title: 'MediaGate / Providers' },
};

describe('Grafana dashboards', () => {
  const dashboards = loadDashboards();
  const catalogue = readMetricCatalogue();
  let context: LintContext;

  before(async () => {
    context = { series: seriesIndex([...catalogue, ...(await defaultProcessMetrics())]) };
  });

  it('are the overview, providers and pipeline dashboards, with stable uids and titles', () => {
    expect(Object.fromEntries(dashboards.map(({ file, dashboard }) => [file, { uid: dashboard.uid, title: dashboard.title }]))).to.deep.equal(expectedDashboards);
  });

  for (const { file, dashboard } of loadDashboards()) {
    it(`${file} passes the structural lint`, () => {
      expect(lintDashboard(dashboard, file, context)).to.deep.equal([]);
    });
  }

  it('the overview opens with stat tiles for request rate, success ratio, backlog, oldest age and credits per hour', () => {
    const overview = dashboards.find(({ file }) => file === 'overview.json')!.dashboard;
    const firstRow = (overview.panels ?? []).filter((panel) => panel.gridPos?.y === 0);
    expect(firstRow.map((panel) => [panel.type, panel.title, panel.fieldConfig?.defaults?.unit])).to.deep.equal([
      ['stat', 'Request rate', 'reqps'],
      ['stat', 'Success ratio', 'percentunit'],
      ['stat', 'Backlog', 'short'],
      ['stat', 'Oldest queued request', 's'],
      ['stat', 'Credits per hour', 'suffix:credits/h'],
    ]);
  });

  it('show every metric family of docs/metrics.md somewhere', () => {
    const shown = new Set<string>();
    for (const query of dashboardQueries()) {
      for (const selector of promqlReferences(query.expr).selectors) {
        const family = context.series.get(selector.metric);
        if (family) shown.add(family.name);
      }
    }
    expect(catalogue.map((family) => family.name).filter((name) => !shown.has(name))).to.deep.equal([]);
  });

  describe('the lint, on a broken copy of the overview', () => {
    const overview = dashboards.find(({ file }) => file === 'overview.json')!.dashboard;
    /** A copy of the overview with one thing broken; `panel(n)` is the n-th non-row panel. */
    const broken = (breakIt: (copy: GrafanaDashboard, panel: (n: number) => GrafanaPanel) => void): string[] => {
      const copy = structuredClone(overview);
      breakIt(copy, (n) => (copy.panels ?? []).filter((panel) => panel.type !== 'row')[n]);
      return lintDashboard(copy, 'overview.json', context);
    };
    const cases: Array<[string, (copy: GrafanaDashboard, panel: (n: number) => GrafanaPanel) => void, RegExp]> = [
      ['an older schemaVersion', (copy) => (copy.schemaVersion = 39), /schemaVersion is 39, expected 42/],
      ['a panel without unit', (_, panel) => delete panel(0).fieldConfig!.defaults!.unit, /panel 1 "Request rate": no unit/],
      ['a unit Grafana does not know', (_, panel) => (panel(5).fieldConfig!.defaults!.unit = 'reqs'), /unit "reqs" is not a Grafana unit id/],
      ['a repeated panel id', (_, panel) => (panel(1).id = panel(0).id), /panel id 1 is used 2 times/],
      ['a hard-coded data source UID', (_, panel) => (panel(2).targets![0].datasource = { type: 'prometheus', uid: 'P1809F7CD0C75ACF3' }), /a data source other than the \$\{datasource\} variable at \$\.panels\[2\]\.targets\[0\]\.datasource/],
      ['a panel on another data source', (_, panel) => (panel(2).datasource = 'Prometheus'), /panel 3 "Backlog": datasource is not the \$\{datasource\} variable/],
      ['a misspelled metric', (_, panel) => (panel(0).targets![0].expr = 'sum(rate(mediagate_request_created_total[$__rate_interval]))'), /mediagate_request_created_total is neither in docs\/metrics\.md nor a prom-client default metric/],
      ['a label the metric lacks', (_, panel) => (panel(0).targets![0].expr = 'sum(rate(mediagate_requests_created_total{provider="openai"}[$__rate_interval]))'), /mediagate_requests_created_total has no label provider/],
      ['a misspelled label value', (_, panel) => (panel(1).targets![0].expr = panel(1).targets![0].expr!.replace('outcome="succeeded"', 'outcome="suceeded"')), /outcome "suceeded" is not one of succeeded, failed, cancelled/],
      ['a counter read without rate()', (_, panel) => (panel(0).targets![0].expr = 'sum(mediagate_requests_created_total)'), /mediagate_requests_created_total is cumulative: read it through rate\(\) or increase\(\)/],
      ['rate() over a gauge', (_, panel) => (panel(2).targets![0].expr = 'max(rate(mediagate_requests_backlog[$__rate_interval]))'), /rate\(\) over mediagate_requests_backlog, a gauge/],
      ['buckets without histogram_quantile', (_, panel) => (panel(0).targets![0].expr = 'sum(rate(mediagate_request_duration_seconds_bucket[$__rate_interval]))'), /_bucket series must feed histogram_quantile\(\) keeping le/],
      ['a fixed range', (_, panel) => (panel(0).targets![0].expr = 'sum(rate(mediagate_requests_created_total[5m]))'), /range \[5m\] is not \[\$__rate_interval\]/],
      ['a legend label the query drops', (_, panel) => (panel(5).targets![0].legendFormat = '{{model}}'), /legend \{\{model\}\} is not a label the query keeps/],
      ['a query without legend', (_, panel) => (panel(5).targets![0].legendFormat = ''), /query A: no legendFormat/],
      ['a hidden legend', (_, panel) => (panel(5).options!.legend!.showLegend = false), /legend not shown/],
      ['an undeclared variable', (_, panel) => (panel(0).targets![0].expr = 'sum(rate(mediagate_requests_created_total{model=~"$model"}[$__rate_interval]))'), /\$model is not a dashboard variable/],
      ['a variable matched with =', (_, panel) => (panel(0).targets![0].expr = 'sum(rate(mediagate_requests_created_total{operation="$operation"}[$__rate_interval]))'), /a variable \(several values, All = \.\*\) needs =~/],
      ['a declared variable no query uses', (copy) => copy.templating!.list!.push({ ...structuredClone(copy.templating!.list![1]), name: 'unused' }), /templating: \$unused is declared but no query uses it/],
      ['a variable over a metric outside the catalogue', (copy) => (copy.templating!.list![1].query = { qryType: 1, query: 'label_values(up, job)', refId: 'PrometheusVariableQueryEditor-VariableQuery' }), /reads up, which is not in docs\/metrics\.md/],
      ['overlapping panels', (_, panel) => (panel(1).gridPos = { ...panel(0).gridPos }), /panels 1 and 2 overlap/],
    ];
    it('finds nothing wrong with the overview itself', () => {
      expect(broken(() => {})).to.deep.equal([]);
    });
    for (const [what, breakIt, expected] of cases) {
      it(`reports ${what}`, () => {
        const problems = broken(breakIt);
        expect(problems.some((problem) => expected.test(problem)), problems.join('\n')).to.equal(true);
      });
    }
  });

  describe('queries for Prometheus (test/support/dashboard-queries.ts)', () => {
    it('replace every variable, by default with each variable\'s All value and a 1m rate interval', () => {
      const queries = dashboardQueries();
      expect(queries.length).to.be.greaterThan(60);
      expect(queries.filter((query) => query.expr.includes('$')).map((query) => query.expr)).to.deep.equal([]);
      const created = queries.find((query) => query.dashboardUid === 'mediagate-overview' && query.panel === 'Request rate')!;
      expect(created).to.deep.include({
        dashboard: 'MediaGate / Overview',
        file: 'overview.json',
        panelId: 1,
        refId: 'A',
        expr: 'sum(rate(mediagate_requests_created_total{operation=~".*"}[1m]))',
        template: 'sum(rate(mediagate_requests_created_total{operation=~"$operation"}[$__rate_interval]))',
      });
    });

    it('take a rate interval and variable values', () => {
      const overview = dashboards.find(({ file }) => file === 'overview.json')!.dashboard;
      const [created] = queriesOf(overview, 'overview.json', { rateInterval: '4s', values: { operation: 'image\\\\.generate' } });
      expect(created.expr).to.equal('sum(rate(mediagate_requests_created_total{operation=~"image\\\\.generate"}[4s]))');
    });
  });

  describe('PromQL of every panel, parsed by promtool', function () {
    before(function () {
      requirePromtool(this);
    });

    it('parses', async () => {
      expect(await promtoolParseProblems(dashboardQueries())).to.deep.equal([]);
    });

    it('reports a query that does not parse with its dashboard, panel and expression', async () => {
      const queries = dashboardQueries();
      const broken = queries.map((query) => (query.panel === 'Backlog' ? { ...query, expr: 'max by (state) (mediagate_requests_backlog', template: 'max by (state) (mediagate_requests_backlog' } : query));
      const problems = await promtoolParseProblems(broken);
      expect(problems).to.have.length(1);
      expect(problems[0]).to.match(/^MediaGate \/ Overview \(overview\.json\), panel 3 "Backlog", query A: could not parse expression: .*unclosed left parenthesis\n {2}expr: max by \(state\) \(mediagate_requests_backlog$/);
    });
  });
});

describe('Grafana provisioning', () => {
  const provisioning = join(projectRoot, 'grafana/provisioning');
  const datasourceFile = readFileSync(join(provisioning, 'datasources/prometheus.yaml'), 'utf8');
  const dashboardsFile = readFileSync(join(provisioning, 'dashboards/mediagate.yaml'), 'utf8');
  /** What an operator sets, as grafana/README.md shows; the command runs from the repository root. */
  const environment = { MEDIAGATE_PROMETHEUS_URL: 'http://127.0.0.1:9090', MEDIAGATE_GRAFANA_DASHBOARDS: join(projectRoot, 'grafana/dashboards') };

  /**
   * Grafana's interpolation of provisioning files: in values (not keys, not comments), $NAME and ${NAME} from the
   * environment, $$ for a literal $.
   */
  const interpolate = (node: unknown, env: Record<string, string>): unknown => {
    if (typeof node === 'string') {
      return node.replace(/\$\$|\$\{(\w+)\}|\$(\w+)/g, (reference, braced?: string, plain?: string) => {
        if (reference === '$$') return '$';
        const value = env[braced ?? plain!];
        if (value === undefined) throw new Error(`provisioning refers to ${reference}, which grafana/README.md does not set`);
        return value;
      });
    }
    if (Array.isArray(node)) return node.map((item) => interpolate(item, env));
    if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolate(value, env)]));
    return node;
  };
  /** The environment variables the provisioning files read, found by interpolating with a recording environment. */
  const variablesRead = (): string[] => {
    const read = new Set<string>();
    const recording = new Proxy({} as Record<string, string>, { get: (_, name: string) => (read.add(name), 'x') });
    interpolate(parse(datasourceFile), recording);
    interpolate(parse(dashboardsFile), recording);
    return [...read];
  };

  it('provisions one Prometheus data source at the URL from the environment', () => {
    expect(interpolate(parse(datasourceFile), environment)).to.deep.equal({
      apiVersion: 1,
      datasources: [{
        name: 'MediaGate Prometheus',
        type: 'prometheus',
        access: 'proxy',
        url: 'http://127.0.0.1:9090',
        isDefault: true,
        editable: false,
        jsonData: { timeInterval: '15s', httpMethod: 'POST' },
      }],
    });
  });

  it('tells Grafana the scrape interval of prometheus/prometheus.yml, from which $__rate_interval follows', () => {
    const prometheus = parse(readFileSync(join(projectRoot, 'prometheus/prometheus.yml'), 'utf8')) as { global: { scrape_interval: string } };
    const datasource = parse(datasourceFile) as { datasources: Array<{ jsonData: { timeInterval: string } }> };
    expect(datasource.datasources[0].jsonData.timeInterval).to.equal(prometheus.global.scrape_interval);
  });

  it('points a file provider at grafana/dashboards, which holds the three dashboards', () => {
    const config = interpolate(parse(dashboardsFile), environment) as { apiVersion: number; providers: Array<{ type: string; folder: string; allowUiUpdates: boolean; options: { path: string; foldersFromFilesStructure: boolean } }> };
    expect(config.apiVersion).to.equal(1);
    expect(config.providers).to.have.length(1);
    const [provider] = config.providers;
    expect(provider).to.deep.include({ name: 'mediagate', type: 'file', folder: 'MediaGate', allowUiUpdates: false });
    expect(resolve(provider.options.path)).to.equal(dashboardsFolder);
    expect(provider.options.foldersFromFilesStructure).to.equal(false);
    expect(loadDashboards(provider.options.path).map(({ file }) => file)).to.deep.equal(Object.keys(expectedDashboards));
  });

  for (const doc of ['README.md', 'grafana/README.md']) {
    it(`${doc} gives the command with every variable the provisioning files read`, () => {
      const text = readFileSync(join(projectRoot, doc), 'utf8');
      const variables = variablesRead();
      expect(variables).to.have.members(['MEDIAGATE_PROMETHEUS_URL', 'MEDIAGATE_GRAFANA_DASHBOARDS']);
      for (const name of ['GF_PATHS_PROVISIONING', ...variables]) expect(text, `${doc} sets ${name}`).to.include(`${name}=`);
      expect(text).to.include('GF_PATHS_PROVISIONING="$PWD/grafana/provisioning"');
      expect(text).to.include('MEDIAGATE_GRAFANA_DASHBOARDS="$PWD/grafana/dashboards"');
      expect(text).to.include('grafana server --homepath /usr/share/grafana');
    });
  }
});
