/**
 * A real OTLP/HTTP receiver for tests (the JSON encoding, OTEL_EXPORTER_OTLP_PROTOCOL=http/json): a
 * node:http server that accepts what the OpenTelemetry SDK exports to /v1/traces and /v1/metrics and
 * keeps it, flattened, for assertions. Point a process at it with `receiver.env('hc-gateway')`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export type AttributeValue = string | number | boolean | null;

export interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
}

export interface ReceivedMetricPoint {
  readonly service: string;
  readonly name: string;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
}

export interface OtlpReceiver {
  readonly url: string;
  spans(): readonly ReceivedSpan[];
  metricPoints(): readonly ReceivedMetricPoint[];
  /** Standard OTEL_* variables that make a process export here, with short batching delays. */
  env(serviceName: string): Record<string, string>;
  stop(): Promise<void>;
}

interface OtlpAttribute {
  key: string;
  value?: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: OtlpAttribute[];
  status?: { code?: number };
}
interface OtlpDataPoints {
  dataPoints?: { attributes?: OtlpAttribute[] }[];
}
interface OtlpMetric {
  name: string;
  sum?: OtlpDataPoints;
  gauge?: OtlpDataPoints;
  histogram?: OtlpDataPoints;
}
interface OtlpResource {
  resource?: { attributes?: OtlpAttribute[] };
}
interface TracesRequest {
  resourceSpans?: (OtlpResource & { scopeSpans?: { spans?: OtlpSpan[] }[] })[];
}
interface MetricsRequest {
  resourceMetrics?: (OtlpResource & { scopeMetrics?: { metrics?: OtlpMetric[] }[] })[];
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    out[key] =
      value?.stringValue ??
      (value?.intValue !== undefined ? Number(value.intValue) : undefined) ??
      value?.doubleValue ??
      value?.boolValue ??
      null;
  }
  return out;
}

function serviceOf(resource: OtlpResource): string {
  return String(attributesOf(resource.resource?.attributes)['service.name'] ?? '');
}

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
  return JSON.parse(text) as unknown;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedMetricPoint[] = [];
  const server = createServer((request, response) => {
    bodyOf(request).then(
      (body) => {
        if (request.url === '/v1/traces') {
          for (const resource of (body as TracesRequest).resourceSpans ?? []) {
            const service = serviceOf(resource);
            for (const scope of resource.scopeSpans ?? [])
              for (const span of scope.spans ?? [])
                spans.push({
                  service,
                  traceId: span.traceId,
                  spanId: span.spanId,
                  parentSpanId: span.parentSpanId ?? '',
                  name: span.name,
                  kind: span.kind ?? 0,
                  attributes: attributesOf(span.attributes),
                  statusCode: span.status?.code ?? 0,
                });
          }
        } else if (request.url === '/v1/metrics') {
          for (const resource of (body as MetricsRequest).resourceMetrics ?? []) {
            const service = serviceOf(resource);
            for (const scope of resource.scopeMetrics ?? [])
              for (const metric of scope.metrics ?? [])
                for (const point of (metric.sum ?? metric.gauge ?? metric.histogram)?.dataPoints ?? [])
                  points.push({ service, name: metric.name, attributes: attributesOf(point.attributes) });
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans: () => [...spans],
    metricPoints: () => [...points],
    env: (serviceName) => ({
      OTEL_SERVICE_NAME: serviceName,
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
    }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
