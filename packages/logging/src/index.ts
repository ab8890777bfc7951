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

export function createLogger(service: string, options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const level = options.level ?? process.env['LOG_LEVEL'] ?? 'info';
  const settings = { name: service, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service } };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
