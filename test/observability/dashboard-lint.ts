/**
 * A structural lint of a Grafana dashboard of grafana/dashboards/: what Grafana would accept silently but an SRE
 * would trip over. Every panel and query reads from the `${datasource}` variable (no data source UID of someone's
 * Grafana), every panel has a unit Grafana knows and a legend, panel ids are unique and panels do not overlap, every
 * query names only metric families of docs/metrics.md or prom-client's defaults with their labels and label values,
 * counters are read through rate()/increase(), histograms through histogram_quantile() over `le`, and the template
 * variables are declared, used and populated from catalogue metrics. Returns the problems, one line each.
 */
import { isDeepStrictEqual } from 'node:util';
import { panelsOf, variablesIn, type GrafanaDashboard, type GrafanaPanel, type GrafanaVariable } from '../support/dashboard-queries.js';
import { type MetricFamily } from './metric-catalogue.js';
import { promqlReferences, type LabelMatcher } from './promql-references.js';

/** The classic dashboard model's schema version that current Grafana writes (12.2 and later export 42). */
export const currentSchemaVersion = 42;

export const datasourceReference = { type: 'prometheus', uid: '${datasource}' } as const;

/** Unit ids of Grafana's value formats (packages/grafana-data/src/valueFormats/categories.ts) the dashboards may use. */
const grafanaUnits = new Set([
  'none', 'short', 'sishort', 'percent', 'percentunit', 'bytes', 'decbytes',
  'ns', 'µs', 'ms', 's', 'm', 'h', 'd', 'dtdurations', 'dtdurationms',
  'cps', 'ops', 'reqps', 'rps', 'wps', 'iops', 'eps', 'mps', 'cpm', 'opm', 'reqpm',
  'bool', 'bool_yes_no', 'bool_on_off',
]);
/** Grafana's custom units: `suffix:credits/h` and the like. Any other unknown id would render as a literal suffix. */
const customUnit = /^(?:suffix|prefix|si|count|currency|bool):.+$/;

const panelTypes = new Set(['row', 'stat', 'timeseries', 'state-timeline']);
const panelsWithLegend = new Set(['timeseries', 'state-timeline']);
/** Labels Prometheus adds to every scraped series. */
const targetLabels = ['instance', 'job'];
const counterFunctions = new Set(['rate', 'irate', 'increase']);
const labelValuesQuery = /^label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)$/;

export interface LintContext {
  /** Series name (histograms: _bucket, _sum, _count) -> family. */
  series: Map<string, MetricFamily>;
}

export function lintDashboard(dashboard: GrafanaDashboard, file: string, context: LintContext): string[] {
  const problems: string[] = [];
  const report = (where: string, message: string) => problems.push(`${file}${where ? ` ${where}` : ''}: ${message}`);

  if (dashboard.schemaVersion !== currentSchemaVersion) report('', `schemaVersion is ${dashboard.schemaVersion}, expected ${currentSchemaVersion}`);
  if (dashboard.id !== null && dashboard.id !== undefined) report('', 'id must be null: Grafana assigns it, provisioning keys on uid');
  if (typeof dashboard.uid !== 'string' || !/^[a-z0-9-]{1,40}$/.test(dashboard.uid)) report('', `uid "${dashboard.uid}" must be 1-40 lowercase letters, digits or dashes`);
  if (typeof dashboard.title !== 'string' || dashboard.title.trim() === '') report('', 'no title');
  if (!Array.isArray(dashboard.tags) || !dashboard.tags.includes('mediagate')) report('', 'the "mediagate" tag is missing (the dashboard links list dashboards by it)');
  for (const path of foreignDatasources(dashboard)) report('', `a data source other than the \${datasource} variable at ${path}`);

  const variables = lintVariables(dashboard.templating?.list ?? [], context, (message) => report('templating', message));
  const declared = new Set(variables.map((variable) => variable.name));
  const used = new Set<string>();

  const panels = panelsOf(dashboard);
  const ids = new Map<number, number>();
  for (const panel of panels) {
    const where = `panel ${panel.id} "${panel.title ?? ''}"`;
    if (!Number.isInteger(panel.id)) report(where, 'no integer id');
    else ids.set(panel.id!, (ids.get(panel.id!) ?? 0) + 1);
    if (!panelTypes.has(panel.type ?? '')) report(where, `panel type "${panel.type}" is not one the lint knows (${[...panelTypes].join(', ')})`);
    if (!panel.title?.trim()) report(where, 'no title');
    lintGridPos(panel, (message) => report(where, message));
    if (panel.type === 'row') {
      if (panel.targets?.length) report(where, 'a row has no queries');
      continue;
    }
    if (!panel.description?.trim()) report(where, 'no description (what the panel shows and how to read it)');
    const unit = panel.fieldConfig?.defaults?.unit;
    if (typeof unit !== 'string' || unit === '') report(where, 'no unit (fieldConfig.defaults.unit)');
    else if (!grafanaUnits.has(unit) && !customUnit.test(unit)) report(where, `unit "${unit}" is not a Grafana unit id`);
    if (panelsWithLegend.has(panel.type ?? '') && panel.options?.legend?.showLegend !== true) report(where, 'legend not shown (options.legend.showLegend)');
    if (!isDeepStrictEqual(panel.datasource, datasourceReference)) report(where, 'datasource is not the ${datasource} variable');
    const targets = panel.targets ?? [];
    if (targets.length === 0) report(where, 'no queries');
    const refIds = new Set<string>();
    for (const target of targets) {
      const at = `${where} query ${target.refId}`;
      if (!target.refId || refIds.has(target.refId)) report(at, 'refId missing or repeated');
      refIds.add(target.refId ?? '');
      if (!isDeepStrictEqual(target.datasource, datasourceReference)) report(at, 'datasource is not the ${datasource} variable');
      if (typeof target.legendFormat !== 'string' || target.legendFormat.trim() === '') report(at, 'no legendFormat');
      if (typeof target.expr !== 'string' || target.expr.trim() === '') {
        report(at, 'no expr');
        continue;
      }
      for (const name of variablesIn(target.expr)) {
        used.add(name);
        if (name !== '__rate_interval' && !declared.has(name)) report(at, `$${name} is not a dashboard variable`);
      }
      lintExpr(target.expr, target.legendFormat ?? '', context, declared, (message) => report(at, `${message} in ${target.expr}`));
    }
  }
  for (const [id, count] of ids) if (count > 1) report('', `panel id ${id} is used ${count} times`);
  lintOverlaps(panels, (message) => report('', message));
  for (const variable of variables) {
    if (variable.type !== 'datasource' && !used.has(variable.name)) report('templating', `$${variable.name} is declared but no query uses it`);
  }
  return problems;
}

function lintVariables(list: GrafanaVariable[], context: LintContext, report: (message: string) => void): Array<{ name: string; type: string }> {
  const seen = new Set<string>();
  const variables: Array<{ name: string; type: string }> = [];
  for (const variable of list) {
    const name = variable.name ?? '';
    if (!name || seen.has(name)) report(`variable "${name}" has no name or a repeated one`);
    seen.add(name);
    variables.push({ name, type: variable.type ?? '' });
    if (variable.type === 'datasource') {
      if (variable.query !== 'prometheus') report(`$${name} must list Prometheus data sources (query "prometheus")`);
      continue;
    }
    if (variable.type !== 'query') {
      report(`$${name} is a ${variable.type} variable; the lint knows datasource and query variables`);
      continue;
    }
    if (!isDeepStrictEqual(variable.datasource, datasourceReference)) report(`$${name} does not query the \${datasource} variable`);
    const query = typeof variable.query === 'object' ? variable.query : undefined;
    const parsed = labelValuesQuery.exec(query?.query ?? '');
    // qryType 1 is the Prometheus variable editor's "Label values" (PromVariableQueryType.LabelValues).
    if (!parsed || query?.qryType !== 1) {
      report(`$${name} must be a label_values(metric, label) query (qryType 1), found ${JSON.stringify(variable.query)}`);
      continue;
    }
    if (variable.definition !== query!.query) report(`$${name}: definition differs from the query`);
    const family = context.series.get(parsed[1]);
    if (!family) report(`$${name} reads ${parsed[1]}, which is not in docs/metrics.md`);
    else if (!family.labels.has(parsed[2])) report(`$${name} reads label ${parsed[2]}, which ${parsed[1]} does not have`);
    // "All" must be a regex matching every value, including ones the variable's metric lacks (provider "none"),
    // and queries must match with =~ because several values may be picked.
    if (variable.includeAll !== true || variable.multi !== true || variable.allValue !== '.*') report(`$${name} must allow All (allValue ".*") and several values`);
  }
  return variables;
}

function lintExpr(expr: string, legendFormat: string, context: LintContext, declared: Set<string>, report: (message: string) => void): void {
  const references = promqlReferences(expr);
  for (const problem of references.problems) report(problem);
  for (const range of references.ranges) {
    if (range !== '$__rate_interval') report(`range [${range}] is not [$__rate_interval], which follows the scrape interval`);
  }
  const allowedLabels = new Set(targetLabels);
  let readsBuckets = false;
  for (const selector of references.selectors) {
    const family = context.series.get(selector.metric);
    if (!family) {
      report(`${selector.metric} is neither in docs/metrics.md nor a prom-client default metric`);
      continue;
    }
    const bucket = family.type === 'histogram' && selector.metric.endsWith('_bucket');
    readsBuckets ||= bucket;
    const labels = new Set([...family.labels.keys(), ...targetLabels, ...(bucket ? ['le'] : [])]);
    for (const label of labels) allowedLabels.add(label);
    const cumulative = family.type === 'counter' || (family.type === 'histogram' && selector.metric !== family.name);
    if (cumulative && !counterFunctions.has(selector.enclosing)) report(`${selector.metric} is cumulative: read it through rate() or increase()`);
    if (!cumulative && counterFunctions.has(selector.enclosing)) report(`${selector.enclosing}() over ${selector.metric}, a ${family.type}`);
    for (const matcher of selector.matchers) {
      if (!labels.has(matcher.label)) report(`${selector.metric} has no label ${matcher.label}`);
      else lintMatcherValue(selector.metric, matcher, family.labels.get(matcher.label), declared, report);
    }
  }
  for (const label of [...references.byLabels, ...references.otherClauseLabels]) {
    if (!allowedLabels.has(label)) report(`grouping label ${label} is on none of the query's metrics`);
  }
  if (readsBuckets && (!/histogram_quantile\s*\(/.test(expr) || !references.byLabels.includes('le'))) report('_bucket series must feed histogram_quantile() keeping le');
  for (const [, label] of legendFormat.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
    if (!references.byLabels.includes(label)) report(`legend {{${label}}} is not a label the query keeps (by ...)`);
  }
}

function lintMatcherValue(metric: string, matcher: LabelMatcher, values: string[] | undefined, declared: Set<string>, report: (message: string) => void): void {
  const referenced = variablesIn(matcher.value);
  if (referenced.length > 0) {
    if (matcher.op !== '=~') report(`${matcher.label}${matcher.op}"${matcher.value}": a variable (several values, All = .*) needs =~`);
    for (const name of referenced) if (!declared.has(name)) report(`$${name} is not a dashboard variable`);
    return;
  }
  if (!values) return;
  const regex = matcher.op === '=~' || matcher.op === '!~';
  const alternatives = regex && /^[A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)*$/.test(matcher.value) ? matcher.value.split('|') : regex ? undefined : [matcher.value];
  if (alternatives) {
    for (const value of alternatives) if (!values.includes(value)) report(`${metric}: ${matcher.label} "${value}" is not one of ${values.join(', ')}`);
  } else if (!values.some((value) => new RegExp(`^(?:${matcher.value})$`).test(value))) {
    report(`${metric}: ${matcher.label}${matcher.op}"${matcher.value}" matches none of ${values.join(', ')}`);
  }
}

function lintGridPos(panel: GrafanaPanel, report: (message: string) => void): void {
  const { x, y, w, h } = panel.gridPos ?? {};
  if (![x, y, w, h].every((value) => Number.isInteger(value))) {
    report('gridPos needs integer x, y, w, h');
    return;
  }
  if (x! < 0 || y! < 0 || w! < 1 || h! < 1 || x! + w! > 24) report(`gridPos ${JSON.stringify(panel.gridPos)} is outside the 24-column grid`);
}

function lintOverlaps(panels: GrafanaPanel[], report: (message: string) => void): void {
  const placed = panels.filter((panel) => panel.gridPos && [panel.gridPos.x, panel.gridPos.y, panel.gridPos.w, panel.gridPos.h].every(Number.isInteger));
  for (let i = 0; i < placed.length; i += 1) {
    for (let j = i + 1; j < placed.length; j += 1) {
      const a = placed[i].gridPos!;
      const b = placed[j].gridPos!;
      if (a.x! < b.x! + b.w! && b.x! < a.x! + a.w! && a.y! < b.y! + b.h! && b.y! < a.y! + a.h!) report(`panels ${placed[i].id} and ${placed[j].id} overlap`);
    }
  }
}

/** JSON paths of every `datasource` that is not the `${datasource}` variable (a hard-coded UID, a name, an import placeholder). */
function foreignDatasources(node: unknown, path = '$'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => foreignDatasources(item, `${path}[${index}]`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const here = `${path}.${key}`;
    if (key === 'datasource' && !isDeepStrictEqual(value, datasourceReference)) return [here];
    return foreignDatasources(value, here);
  });
}
