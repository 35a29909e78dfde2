/**
 * A loopback OTLP/HTTP receiver for gateway processes exporting with OTEL_EXPORTER_OTLP_PROTOCOL=http/json: it
 * keeps the spans of every `POST /v1/traces` (an ExportTraceServiceRequest) and answers as a collector does. In
 * OTLP's JSON encoding trace and span ids are hex strings and the span kind is the enum's number
 * (https://github.com/open-telemetry/opentelemetry-proto/blob/main/docs/specification.md#json-protobuf-encoding).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { TracedSpan } from './span-tree.js';

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  url: string;
  spans: TracedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}

interface ExportTraceServiceRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

const kinds = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: TracedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')) as ExportTraceServiceRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) spans.push(tracedSpan(span, scopeSpans.scope?.name ?? '', resource));
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function tracedSpan(span: OtlpSpan, scope: string, resource: Record<string, unknown>): TracedSpan {
  return {
    name: span.name,
    kind: kinds[span.kind] ?? String(span.kind),
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId || undefined,
    scope,
    attributes: attributesOf(span.attributes),
    links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
    error: span.status?.code === 2,
    resource,
  };
}

function attributesOf(list: { key: string; value: OtlpValue }[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue ?? value.boolValue)]));
}
