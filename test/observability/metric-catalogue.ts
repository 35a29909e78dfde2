/**
 * The metric families a dashboard may query: the gateway's catalogue in docs/metrics.md (names, types, labels and,
 * where the table lists them, label values) and prom-client's default process/nodejs metrics, read from prom-client
 * itself so a prom-client upgrade that renames one shows up here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { projectRoot } from '../../src/kernel/config/index.js';

export interface MetricFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  /** Label name -> the values the catalogue allows, or undefined when it does not enumerate them. */
  labels: Map<string, string[] | undefined>;
  source: 'docs/metrics.md' | 'prom-client defaults';
}

const familyRow = /^\|\s*`([a-z_:][a-z0-9_:]*)`\s*\|\s*(counter|gauge|histogram|summary)\b[^|]*\|([^|]*)\|/;
/** One label of the labels cell: `name`, optionally followed by its values in parentheses: (`a`, `b`). */
const labelEntry = /^\s*`([a-z_][a-z0-9_]*)`(?:\s*\(([^)]*)\))?\s*,?/;

export function parseMetricCatalogue(markdown: string): MetricFamily[] {
  const families: MetricFamily[] = [];
  for (const line of markdown.split('\n')) {
    const row = familyRow.exec(line);
    if (!row) continue;
    const labels = new Map<string, string[] | undefined>();
    let cell = row[3].trim();
    if (cell !== '—' && cell !== '-' && cell !== '') {
      while (cell.length > 0) {
        const entry = labelEntry.exec(cell);
        if (!entry) throw new Error(`docs/metrics.md: cannot read the labels of ${row[1]} at "${cell}"`);
        labels.set(entry[1], entry[2] === undefined ? undefined : [...entry[2].matchAll(/`([^`]+)`/g)].map((value) => value[1]));
        cell = cell.slice(entry[0].length).trim();
      }
    }
    families.push({ name: row[1], type: row[2] as MetricFamily['type'], labels, source: 'docs/metrics.md' });
  }
  return families;
}

export function readMetricCatalogue(): MetricFamily[] {
  return parseMetricCatalogue(readFileSync(join(projectRoot, 'docs/metrics.md'), 'utf8'));
}

export async function defaultProcessMetrics(): Promise<MetricFamily[]> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = await registry.getMetricsAsJSON();
  registry.clear();
  return metrics.map((metric) => {
    const labels = new Map<string, string[] | undefined>();
    for (const value of metric.values as Array<{ labels: Record<string, unknown> }>) {
      for (const label of Object.keys(value.labels)) if (label !== 'le') labels.set(label, undefined);
    }
    return { name: metric.name, type: String(metric.type) as MetricFamily['type'], labels, source: 'prom-client defaults' as const };
  });
}

/** The series names Prometheus stores for a family: a histogram is its _bucket, _sum and _count series. */
export function seriesNamesOf(family: MetricFamily): string[] {
  if (family.type === 'histogram') return [`${family.name}_bucket`, `${family.name}_sum`, `${family.name}_count`];
  if (family.type === 'summary') return [family.name, `${family.name}_sum`, `${family.name}_count`];
  return [family.name];
}

/** Series name -> its family, for every family given. */
export function seriesIndex(families: MetricFamily[]): Map<string, MetricFamily> {
  const index = new Map<string, MetricFamily>();
  for (const family of families) for (const series of seriesNamesOf(family)) index.set(series, family);
  return index;
}
