/**
 * The Grafana dashboards of grafana/dashboards/ as data, and every PromQL query on them with Grafana's variables
 * replaced by values Prometheus accepts. The dashboard tests parse these queries with promtool; the end-to-end test
 * runs them against a real Prometheus scraping the gateway and expects data from each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/kernel/config/index.js';

export const dashboardsFolder = join(projectRoot, 'grafana/dashboards');

/** The part of Grafana's classic dashboard model the gateway's dashboards use. Parsed JSON, checked by the lint. */
export interface GrafanaDashboard {
  id?: number | null;
  uid?: string;
  title?: string;
  schemaVersion?: number;
  templating?: { list?: GrafanaVariable[] };
  panels?: GrafanaPanel[];
  [key: string]: unknown;
}

export interface GrafanaVariable {
  name?: string;
  type?: string;
  query?: string | { query?: string; qryType?: number; refId?: string };
  definition?: string;
  datasource?: unknown;
  includeAll?: boolean;
  multi?: boolean;
  allValue?: string;
  [key: string]: unknown;
}

export interface GrafanaPanel {
  id?: number;
  type?: string;
  title?: string;
  description?: string;
  datasource?: unknown;
  gridPos?: { x?: number; y?: number; w?: number; h?: number };
  fieldConfig?: { defaults?: { unit?: string; [key: string]: unknown }; overrides?: unknown[] };
  options?: { legend?: { showLegend?: boolean; [key: string]: unknown }; [key: string]: unknown };
  targets?: GrafanaTarget[];
  /** Only rows have nested panels (a collapsed row keeps its panels here). */
  panels?: GrafanaPanel[];
  [key: string]: unknown;
}

export interface GrafanaTarget {
  refId?: string;
  expr?: string;
  legendFormat?: string;
  datasource?: unknown;
  [key: string]: unknown;
}

export interface DashboardFile {
  /** File name in grafana/dashboards/, e.g. `overview.json`. */
  file: string;
  dashboard: GrafanaDashboard;
}

export interface DashboardQuery {
  /** Dashboard title. */
  dashboard: string;
  dashboardUid: string;
  file: string;
  /** Panel title. */
  panel: string;
  panelId: number;
  refId: string;
  /** The query as Prometheus receives it: variables substituted. */
  expr: string;
  /** The query as written in the dashboard. */
  template: string;
}

export interface QueryVariableValues {
  /** What `$__rate_interval` becomes; Grafana makes it at least four scrape intervals. Default `1m`. */
  rateInterval?: string;
  /** Values of dashboard variables by name; by default each variable's "All" value (`allValue`). */
  values?: Record<string, string>;
}

export function loadDashboards(folder = dashboardsFolder): DashboardFile[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, dashboard: JSON.parse(readFileSync(join(folder, file), 'utf8')) as GrafanaDashboard }));
}

/** Top-level panels and the panels nested in rows, in order. */
export function panelsOf(dashboard: GrafanaDashboard): GrafanaPanel[] {
  return (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]);
}

/** Grafana's variable syntaxes in a query: `$name`, `${name}`, `${name:format}`, `[[name]]`. */
const variableReference = /\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)\]\]/g;

export function variablesIn(expr: string): string[] {
  return [...expr.matchAll(variableReference)].map((match) => match[1] ?? match[2] ?? match[3]);
}

/** Replaces every variable reference; a reference without a value is an error naming it and the query. */
export function substituteVariables(expr: string, values: Record<string, string>): string {
  return expr.replace(variableReference, (reference, braced?: string, plain?: string, bracketed?: string) => {
    const name = braced ?? plain ?? bracketed!;
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${reference} in ${expr}`);
    return value;
  });
}

export function dashboardQueries(options: QueryVariableValues = {}, folder = dashboardsFolder): DashboardQuery[] {
  return loadDashboards(folder).flatMap(({ file, dashboard }) => queriesOf(dashboard, file, options));
}

export function queriesOf(dashboard: GrafanaDashboard, file: string, options: QueryVariableValues = {}): DashboardQuery[] {
  const values: Record<string, string> = { __rate_interval: options.rateInterval ?? '1m' };
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.name && variable.allValue !== undefined) values[variable.name] = variable.allValue;
  }
  Object.assign(values, options.values);
  return panelsOf(dashboard).flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      dashboard: dashboard.title ?? file,
      dashboardUid: dashboard.uid ?? '',
      file,
      panel: panel.title ?? '',
      panelId: panel.id ?? 0,
      refId: target.refId ?? '',
      expr: substituteVariables(target.expr ?? '', values),
      template: target.expr ?? '',
    })),
  );
}
