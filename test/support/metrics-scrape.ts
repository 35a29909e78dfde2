/**
 * A parsed Prometheus text exposition (format 0.0.4, what prom-client serves): the families with their HELP and
 * TYPE, and every sample with its labels, so tests assert on values rather than on regular expressions over text.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
}

export class Scrape {
  readonly families = new Map<string, Family>();
  readonly samples: Sample[] = [];

  constructor(readonly text: string) {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (meta) {
        const family = this.families.get(meta[2]) ?? { name: meta[2], type: '', help: '' };
        if (meta[1] === 'HELP') family.help = meta[3];
        else family.type = meta[3];
        this.families.set(meta[2], family);
        continue;
      }
      this.samples.push(parseSample(line));
    }
  }

  /** The samples of a family (a histogram's `_bucket`, `_sum` and `_count` lines included). */
  of(family: string): Sample[] {
    return this.samples.filter((sample) => sample.name === family || (this.families.get(family)?.type === 'histogram' && [`${family}_bucket`, `${family}_sum`, `${family}_count`].includes(sample.name)));
  }

  /** The one sample of `name` whose labels include `labels`; throws when there is none or several. */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.matching(name, labels);
    if (found.length !== 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return found[0].value;
  }

  /** The sum over every sample of `name` whose labels include `labels` (0 when none). */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.matching(name, labels).reduce((total, sample) => total + sample.value, 0);
  }

  /** The values of one label over a family's samples. */
  labelValues(name: string, label: string): Set<string> {
    return new Set(this.samples.filter((sample) => sample.name === name && label in sample.labels).map((sample) => sample.labels[label]));
  }

  private matching(name: string, labels: Record<string, string>): Sample[] {
    return this.samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  }
}

function parseSample(line: string): Sample {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{)?/.exec(line);
  if (!head) throw new Error(`not a sample line: ${line}`);
  const labels: Record<string, string> = {};
  let rest = line.slice(head[0].length);
  if (head[2]) {
    // label="value" pairs; values escape \\, \" and \n.
    const pair = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/;
    for (let match = pair.exec(rest); match; match = pair.exec(rest)) {
      labels[match[1]] = match[2].replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
      rest = rest.slice(match[0].length);
    }
    if (!rest.startsWith('}')) throw new Error(`unterminated labels: ${line}`);
    rest = rest.slice(1);
  }
  const value = rest.trim().split(/\s+/)[0];
  return { name: head[1], labels, value: value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : Number(value) };
}

export async function scrape(url: string, init?: RequestInit): Promise<Scrape> {
  const response = await fetch(url, init);
  if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return new Scrape(await response.text());
}
