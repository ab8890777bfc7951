import { loadConfig, type JSONSchemaType } from '@hc/config';
import { checkEventRetention, EVENT_RETENTION_KEYS, EVENT_RETENTION_SCHEMA_PROPERTIES, type EventRetention } from '@hc/events';
import { parseEncryptionKeys } from '@hc/secrets';
import { DURATION_PATTERN, parseDuration } from './domain/duration.ts';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, RETRY_SCHEDULE_PATTERN } from './domain/retry-schedule.ts';

/** With the deployment's event retention (EVENTS_*, @hc/events: streams and processed records). */
export interface WebhooksConfig extends EventRetention {
  /** PostgreSQL database owned by this service alone. */
  WEBHOOKS_DATABASE_URL: string;
  /** host:port the gRPC server binds (port 0 picks a free one). */
  WEBHOOKS_GRPC_ADDRESS: string;
  /** NATS server with JetStream: checkout's payment events and customers' erasures come from there. */
  NATS_URL: string;
  /** Prefix of every subject and stream name (empty in production; per test file in tests). */
  NATS_SUBJECT_PREFIX: string;
  /** Deadline of one HTTP attempt, connection included. */
  WEBHOOKS_DELIVERY_TIMEOUT: string;
  /** Attempts in flight at once, over all endpoints. */
  WEBHOOKS_CONCURRENCY: number;
  /**
   * Attempts in flight at once to one healthy endpoint (no failure since its last success): enough for
   * a shop whose events come faster than a few answers at a time can take (docs/adr/0107).
   */
  WEBHOOKS_CONCURRENCY_PER_ENDPOINT: number;
  /** Attempts in flight at once to a failing endpoint (failing since its last success), to spare a struggling server. */
  WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT: number;
  /** Waits between attempts, comma-separated (domain/retry-schedule.ts). */
  WEBHOOKS_RETRY_SCHEDULE: string;
  /** Longest wait a Retry-After header can ask for. */
  WEBHOOKS_RETRY_AFTER_MAX: string;
  /** How long a claimed attempt may run before another worker takes it over (a crashed worker). */
  WEBHOOKS_LEASE: string;
  /** How long JetStream waits for a consumed event's ack before redelivering it (a crashed process's messages). */
  WEBHOOKS_EVENT_ACK_WAIT: string;
  /** How often the worker looks for due deliveries when nothing woke it. */
  WEBHOOKS_POLL_INTERVAL: string;
  /** How long the previous secret keeps signing after a rotation. */
  WEBHOOKS_SECRET_OVERLAP: string;
  /** An endpoint with no success for this long is disabled when one of its deliveries runs out of attempts. */
  WEBHOOKS_DISABLE_AFTER_FAILING: string;
  /** An enabled endpoint with no success for this long alerts its merchant, once per failing streak (docs/adr/0049). */
  WEBHOOKS_FAILING_ALERT_AFTER: string;
  /** How long the delivery log (events, deliveries, attempts with their bodies) is kept: 30 days. */
  WEBHOOKS_LOG_RETENTION: string;
  /** Allow loopback, RFC 1918, CGNAT and ULA targets (local development and tests only). */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: boolean;
  /**
   * Keys that encrypt signing secrets at rest, `keyId:base64key[,…]`, the first one current
   * (@hc/secrets, docs/adr/0042). No default: the service refuses to start without it (migrations do not need it).
   */
  SECRETS_ENCRYPTION_KEYS?: string;
  LOG_LEVEL: string;
}

const duration = (fallback: string) => ({ type: 'string', pattern: DURATION_PATTERN, default: fallback }) as const;

const schema: JSONSchemaType<WebhooksConfig> = {
  type: 'object',
  properties: {
    WEBHOOKS_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_webhooks' },
    WEBHOOKS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50054' },
    NATS_URL: { type: 'string', default: 'nats://127.0.0.1:4222' },
    NATS_SUBJECT_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]*$', default: '' },
    WEBHOOKS_DELIVERY_TIMEOUT: duration('10s'),
    WEBHOOKS_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 1000, default: 64 },
    WEBHOOKS_CONCURRENCY_PER_ENDPOINT: { type: 'integer', minimum: 1, maximum: 100, default: 16 },
    WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT: { type: 'integer', minimum: 1, maximum: 100, default: 2 },
    WEBHOOKS_RETRY_SCHEDULE: { type: 'string', pattern: RETRY_SCHEDULE_PATTERN, default: DEFAULT_RETRY_SCHEDULE },
    WEBHOOKS_RETRY_AFTER_MAX: duration('1h'),
    WEBHOOKS_LEASE: duration('2m'),
    WEBHOOKS_EVENT_ACK_WAIT: duration('30s'),
    WEBHOOKS_POLL_INTERVAL: duration('1s'),
    WEBHOOKS_SECRET_OVERLAP: duration('24h'),
    WEBHOOKS_DISABLE_AFTER_FAILING: duration('5d'),
    WEBHOOKS_FAILING_ALERT_AFTER: duration('6h'),
    WEBHOOKS_LOG_RETENTION: duration('30d'),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: { type: 'boolean', default: false },
    SECRETS_ENCRYPTION_KEYS: { type: 'string', nullable: true },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    ...EVENT_RETENTION_SCHEMA_PROPERTIES,
  },
  required: [
    'WEBHOOKS_DATABASE_URL',
    'WEBHOOKS_GRPC_ADDRESS',
    'NATS_URL',
    'NATS_SUBJECT_PREFIX',
    'WEBHOOKS_DELIVERY_TIMEOUT',
    'WEBHOOKS_CONCURRENCY',
    'WEBHOOKS_CONCURRENCY_PER_ENDPOINT',
    'WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT',
    'WEBHOOKS_RETRY_SCHEDULE',
    'WEBHOOKS_RETRY_AFTER_MAX',
    'WEBHOOKS_LEASE',
    'WEBHOOKS_EVENT_ACK_WAIT',
    'WEBHOOKS_POLL_INTERVAL',
    'WEBHOOKS_SECRET_OVERLAP',
    'WEBHOOKS_DISABLE_AFTER_FAILING',
    'WEBHOOKS_FAILING_ALERT_AFTER',
    'WEBHOOKS_LOG_RETENTION',
    'WEBHOOKS_ALLOW_PRIVATE_TARGETS',
    'LOG_LEVEL',
    ...EVENT_RETENTION_KEYS,
  ],
  additionalProperties: false,
};

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  const config = checkEventRetention(loadConfig(schema, env));
  deliverySettings(config);
  // A malformed key list stops the process here; a missing one stops the service at start (webhooks-service.ts).
  if (config.SECRETS_ENCRYPTION_KEYS !== undefined) parseEncryptionKeys(config.SECRETS_ENCRYPTION_KEYS);
  return config;
}

/** The delivery rules of a config, in milliseconds. */
export interface DeliverySettings {
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly concurrencyPerEndpoint: number;
  readonly concurrencyPerFailingEndpoint: number;
  readonly retrySchedule: readonly number[];
  readonly retryAfterMaxMs: number;
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  readonly eventAckWaitMs: number;
  readonly secretOverlapMs: number;
  readonly disableAfterFailingMs: number;
  readonly failingAlertAfterMs: number;
  readonly logRetentionMs: number;
  readonly allowPrivateTargets: boolean;
}

/** Also checks what the schema cannot: a lease must outlast an attempt, or live attempts would be taken over. */
export function deliverySettings(config: WebhooksConfig): DeliverySettings {
  const settings = {
    timeoutMs: parseDuration(config.WEBHOOKS_DELIVERY_TIMEOUT),
    concurrency: config.WEBHOOKS_CONCURRENCY,
    concurrencyPerEndpoint: config.WEBHOOKS_CONCURRENCY_PER_ENDPOINT,
    concurrencyPerFailingEndpoint: config.WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT,
    retrySchedule: parseRetrySchedule(config.WEBHOOKS_RETRY_SCHEDULE),
    retryAfterMaxMs: parseDuration(config.WEBHOOKS_RETRY_AFTER_MAX),
    leaseMs: parseDuration(config.WEBHOOKS_LEASE),
    pollIntervalMs: parseDuration(config.WEBHOOKS_POLL_INTERVAL),
    eventAckWaitMs: parseDuration(config.WEBHOOKS_EVENT_ACK_WAIT),
    secretOverlapMs: parseDuration(config.WEBHOOKS_SECRET_OVERLAP),
    disableAfterFailingMs: parseDuration(config.WEBHOOKS_DISABLE_AFTER_FAILING),
    failingAlertAfterMs: parseDuration(config.WEBHOOKS_FAILING_ALERT_AFTER),
    logRetentionMs: parseDuration(config.WEBHOOKS_LOG_RETENTION),
    allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
  };
  if (settings.timeoutMs < 100) throw new Error('WEBHOOKS_DELIVERY_TIMEOUT must be at least 100ms');
  if (settings.leaseMs < settings.timeoutMs + 1000) {
    throw new Error('WEBHOOKS_LEASE must exceed WEBHOOKS_DELIVERY_TIMEOUT by at least 1s (an attempt in flight would be taken over)');
  }
  if (settings.eventAckWaitMs < 1000) throw new Error('WEBHOOKS_EVENT_ACK_WAIT must be at least 1s');
  // Every delivery finishes within its retry schedule; the log must outlive it, with room for a resend.
  const scheduleMs = settings.retrySchedule.reduce((sum, wait) => sum + wait, 0);
  if (settings.logRetentionMs < Math.max(scheduleMs, 24 * 3_600_000)) {
    throw new Error('WEBHOOKS_LOG_RETENTION must be at least a day and longer than the whole retry schedule');
  }
  if (settings.concurrencyPerFailingEndpoint > settings.concurrencyPerEndpoint) {
    throw new Error('WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT must not exceed WEBHOOKS_CONCURRENCY_PER_ENDPOINT');
  }
  if (settings.pollIntervalMs < 10) throw new Error('WEBHOOKS_POLL_INTERVAL must be at least 10ms');
  return settings;
}
