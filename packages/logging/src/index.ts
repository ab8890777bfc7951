import { trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, one logger per service. Secrets never reach a log line: authorization
 * headers, API keys and idempotency keys are redacted wherever they appear in a logged object, and
 * request bodies are not logged at all.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'authorization',
  'apiKey',
  'secretKey',
  'secret',
  '*.apiKey',
  '*.secretKey',
  '*.secret',
];

/**
 * `trace_id` and `span_id` of the span active where a line is logged, so that a log line leads to its
 * trace (and back). Nothing is added outside a span, nor when telemetry is off (the API is a no-op).
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || context.traceId === '00000000000000000000000000000000') return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}

export function createLogger(service: string, options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const level = options.level ?? process.env['LOG_LEVEL'] ?? 'info';
  const settings = { name: service, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service }, mixin: traceFields };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
