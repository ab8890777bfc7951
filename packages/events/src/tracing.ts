/**
 * Trace context across the outbox and JetStream (W3C Trace Context, ADR 0019). A state change records
 * the `traceparent` of the request that made it in its outbox row; the relay publishes the row inside a
 * producer span of that trace and puts the producer's `traceparent` in the message headers; a consumer
 * continues the trace in a consumer span whose parent is the producer span.
 *
 * Everything here goes through @opentelemetry/api: with no SDK started (no OTEL_* endpoint) the
 * propagator is a no-op, no header is written and no span recorded.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';

const TRACER = 'hc-events';
const TRACEPARENT = 'traceparent';
const TRACESTATE = 'tracestate';

type Carrier = Record<string, string>;

/**
 * A subject with its trailing object id (e.g. `checkout.payment.paid.pay_01…`, ADR 0017) written as
 * `{id}`: span names stay low-cardinality, as OpenTelemetry's messaging conventions ask; the whole
 * subject is in the `messaging.destination.name` attribute.
 */
export function subjectTemplate(subject: string): string {
  return subject.replace(/\.[a-z]{2,5}_[0-9A-Za-z]{10,}$/, '.{id}');
}

/** The `traceparent` of the active span, to store with an outbox row; null outside a trace or with telemetry off. */
export function currentTraceparent(): string | null {
  const carrier: Carrier = {};
  propagation.inject(context.active(), carrier);
  return carrier[TRACEPARENT] ?? null;
}

function contextFrom(traceparent: string | null | undefined, tracestate?: string | null): Context {
  if (!traceparent) return context.active();
  const carrier: Carrier = { [TRACEPARENT]: traceparent };
  if (tracestate) carrier[TRACESTATE] = tracestate;
  return propagation.extract(context.active(), carrier);
}

/** Sets the headers that carry the active trace to a consumer (none when there is no trace). */
function traceHeaders(into: MsgHdrs): void {
  const carrier: Carrier = {};
  propagation.inject(context.active(), carrier);
  for (const [key, value] of Object.entries(carrier)) into.set(key, value);
}

async function inSpan<T>(span: Span, spanContext: Context, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(spanContext, span), work);
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Publishes one outbox row in a producer span that continues the trace stored with the row; `publish`
 * receives the NATS headers to send (holding the producer span's traceparent).
 */
export function publishInSpan<T>(
  row: { subject: string; msgId: string; traceparent: string | null },
  publish: (headers: MsgHdrs) => Promise<T>,
): Promise<T> {
  const parent = contextFrom(row.traceparent);
  const span = trace.getTracer(TRACER).startSpan(
    `publish ${subjectTemplate(row.subject)}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': row.subject, 'messaging.message.id': row.msgId },
    },
    parent,
  );
  return inSpan(span, parent, () => {
    const headers = natsHeaders();
    traceHeaders(headers);
    return publish(headers);
  });
}

/** Runs a consumer's handler in a consumer span whose parent is the producer span named by the message headers. */
export function consumeInSpan<T>(
  message: { subject: string; msgId: string; headers: MsgHdrs | undefined; durable: string; delivery: number },
  handle: () => Promise<T>,
): Promise<T> {
  const parent = contextFrom(message.headers?.get(TRACEPARENT), message.headers?.get(TRACESTATE));
  const span = trace.getTracer(TRACER).startSpan(
    `process ${subjectTemplate(message.subject)}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.destination.name': message.subject,
        'messaging.message.id': message.msgId,
        'messaging.consumer.group.name': message.durable,
        'messaging.nats.delivery_count': message.delivery,
      },
    },
    parent,
  );
  return inSpan(span, parent, handle);
}

/**
 * Runs `work` in a span of the trace named by a stored `traceparent` (e.g. a webhook delivery attempt
 * of the event that a consumer span recorded), or of the active trace when there is none.
 */
export function continueTrace<T>(
  traceparent: string | null | undefined,
  name: string,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = contextFrom(traceparent);
  const span = trace
    .getTracer(TRACER)
    .startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} }, parent);
  return inSpan(span, parent, () => work(span));
}

/** Adds the active trace's `traceparent` (and `tracestate`) to outgoing HTTP headers. */
export function injectTraceHeaders(headers: Record<string, string>): Record<string, string> {
  const carrier: Carrier = {};
  propagation.inject(context.active(), carrier);
  return { ...headers, ...carrier };
}
