/** Finished spans as the tracing tests read them, from an in-memory exporter or an OTLP receiver alike. */

export interface TracedSpan {
  name: string;
  /** INTERNAL, SERVER, CLIENT, PRODUCER or CONSUMER. */
  kind: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** The instrumentation scope: `mediagate` for our spans, `@opentelemetry/instrumentation-<module>` for the rest. */
  scope: string;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  error: boolean;
  resource: Record<string, unknown>;
}

export class SpanTree {
  constructor(readonly spans: readonly TracedSpan[]) {}

  /** The one span that matches; fails naming what there is otherwise. */
  one(what: string, match: (span: TracedSpan) => boolean): TracedSpan {
    const found = this.spans.filter(match);
    if (found.length !== 1) throw new Error(`expected one ${what}, found ${found.length} among: ${this.spans.map(label).join(', ')}`);
    return found[0]!;
  }

  all(match: (span: TracedSpan) => boolean): TracedSpan[] {
    return this.spans.filter(match);
  }

  parentOf(span: TracedSpan): TracedSpan | undefined {
    return span.parentSpanId === undefined ? undefined : this.spans.find((each) => each.spanId === span.parentSpanId && each.traceId === span.traceId);
  }

  childrenOf(span: TracedSpan): TracedSpan[] {
    return this.spans.filter((each) => each.parentSpanId === span.spanId && each.traceId === span.traceId);
  }

  /**
   * `span` and its ancestors up to the root, as "KIND name" labels, with a run of equal labels kept once (koa makes a
   * router span per middleware of a route, and how many a route has is not what these tests are about). A parent that
   * was never received ends the chain with "missing <id>", so a broken chain shows where it breaks.
   */
  ancestry(span: TracedSpan): string[] {
    const labels: string[] = [];
    for (let current: TracedSpan | undefined = span; current; ) {
      if (labels.at(-1) !== label(current)) labels.push(label(current));
      const parent = this.parentOf(current);
      if (!parent && current.parentSpanId !== undefined) labels.push(`missing ${current.parentSpanId}`);
      current = parent;
    }
    return labels;
  }
}

export function label(span: TracedSpan): string {
  return `${span.kind} ${span.name}`;
}

/** The W3C traceparent of a sampled span (what the gateway stores and sends). */
export function traceparentOf(span: TracedSpan): string {
  return `00-${span.traceId}-${span.spanId}-01`;
}
