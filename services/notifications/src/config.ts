import { loadConfig, type JSONSchemaType } from '@hc/config';
import { parseEncryptionKeys } from '@hc/secrets';
import { checkEventRetention, EVENT_RETENTION_KEYS, EVENT_RETENTION_SCHEMA_PROPERTIES, type EventRetention } from '@hc/events';

/** With the deployment's event retention (EVENTS_*, @hc/events: streams and processed records). */
export interface NotificationsConfig extends EventRetention {
  /** PostgreSQL database owned by this service alone. */
  NOTIFICATIONS_DATABASE_URL: string;
  /** host:port the gRPC server binds (port 0 picks a free one). */
  NOTIFICATIONS_GRPC_ADDRESS: string;
  NATS_URL: string;
  /** Prefix of every subject and stream name (empty in production; per test file in tests). */
  NATS_SUBJECT_PREFIX: string;
  /** The SMTP server mails are handed to. */
  SMTP_HOST: string;
  SMTP_PORT: number;
  /** `tls`: TLS from the first byte (port 465); `starttls`: upgrade required; `none`: plain (a local catcher only). */
  SMTP_SECURITY: 'tls' | 'starttls' | 'none';
  /** Credentials (from a Secret in the chart); both or neither. */
  SMTP_USER?: string;
  SMTP_PASSWORD?: string;
  /** The sender address of every mail; the display name is the merchant's. */
  MAIL_FROM: string;
  /** The platform's public address: links in mails (tracking pages, the dashboard). */
  PUBLIC_BASE_URL: string;
  /** Deadline of one SMTP hand-over, connection included. */
  SMTP_TIMEOUT_MS: number;
  /** Attempts before a mail is marked failed. */
  MAIL_MAX_ATTEMPTS: number;
  /** First wait after a failed attempt; doubled each time, at most MAIL_RETRY_MAX_MS. */
  MAIL_RETRY_BASE_MS: number;
  MAIL_RETRY_MAX_MS: number;
  /** How long a claimed mail may be sending before another worker takes it over (a crashed process). */
  MAIL_LEASE_MS: number;
  /** How often the worker looks for due mails when nothing woke it. */
  MAIL_POLL_INTERVAL_MS: number;
  /** Mails handed to SMTP at once. */
  MAIL_CONCURRENCY: number;
  /** How long JetStream waits for a consumed event's ack before redelivering it. */
  NOTIFICATIONS_EVENT_ACK_WAIT_MS: number;
  /**
   * Keys that seal invitation links at rest until sent (keyId:base64key[,…], docs/adr/0042). Optional:
   * without them the service refuses invitations and the dashboard shows the link to its owner once.
   */
  SECRETS_ENCRYPTION_KEYS?: string;
  /**
   * The dashboard's internal listener (DashboardUsersService): a Test receipt goes only to an address
   * that signs in to the payment's account there (docs/notifications.md, "Test receipts").
   */
  DASHBOARD_GRPC_ADDRESS: string;
  /**
   * The accounts service (its BrandService): the shop's logo and accent colour in its buyers'
   * receipts (docs/adr/0096). Unset: receipts in the platform's plain look.
   */
  ACCOUNTS_GRPC_ADDRESS?: string;
  /** Test receipts an account may send in an hour; those beyond are recorded as canceled, never sent. */
  TEST_RECEIPTS_PER_ACCOUNT_HOUR: number;
  /**
   * Local development and tests only (`./scripts/start`, whose mail never leaves the machine): Test
   * receipts to any address, without asking the dashboard. The hourly cap still applies. Never in a
   * deployment: the chart does not set it.
   */
  TEST_RECEIPTS_TO_ANY_ADDRESS: boolean;
  LOG_LEVEL: string;
}

const integer = (minimum: number, maximum: number, fallback: number) => ({ type: 'integer', minimum, maximum, default: fallback }) as const;

const schema: JSONSchemaType<NotificationsConfig> = {
  type: 'object',
  properties: {
    NOTIFICATIONS_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_notifications' },
    NOTIFICATIONS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50058' },
    NATS_URL: { type: 'string', default: 'nats://127.0.0.1:4222' },
    NATS_SUBJECT_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]*$', default: '' },
    SMTP_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    SMTP_PORT: integer(1, 65535, 1025),
    SMTP_SECURITY: { type: 'string', enum: ['tls', 'starttls', 'none'], default: 'starttls' },
    SMTP_USER: { type: 'string', nullable: true },
    SMTP_PASSWORD: { type: 'string', nullable: true },
    MAIL_FROM: { type: 'string', format: 'email', default: 'receipts@checkout.localhost' },
    PUBLIC_BASE_URL: { type: 'string', format: 'uri', default: 'http://127.0.0.1:8080' },
    SMTP_TIMEOUT_MS: integer(100, 300_000, 15_000),
    MAIL_MAX_ATTEMPTS: integer(1, 100, 8),
    MAIL_RETRY_BASE_MS: integer(10, 3_600_000, 30_000),
    MAIL_RETRY_MAX_MS: integer(10, 86_400_000, 3_600_000),
    MAIL_LEASE_MS: integer(1_000, 3_600_000, 60_000),
    MAIL_POLL_INTERVAL_MS: integer(10, 60_000, 1_000),
    MAIL_CONCURRENCY: integer(1, 100, 4),
    NOTIFICATIONS_EVENT_ACK_WAIT_MS: integer(1_000, 600_000, 30_000),
    SECRETS_ENCRYPTION_KEYS: { type: 'string', nullable: true },
    DASHBOARD_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50056' },
    ACCOUNTS_GRPC_ADDRESS: { type: 'string', minLength: 3, nullable: true },
    TEST_RECEIPTS_PER_ACCOUNT_HOUR: integer(1, 10_000, 20),
    TEST_RECEIPTS_TO_ANY_ADDRESS: { type: 'boolean', default: false },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    ...EVENT_RETENTION_SCHEMA_PROPERTIES,
  },
  required: [
    'NOTIFICATIONS_DATABASE_URL',
    'NOTIFICATIONS_GRPC_ADDRESS',
    'NATS_URL',
    'NATS_SUBJECT_PREFIX',
    'SMTP_HOST',
    'SMTP_PORT',
    'SMTP_SECURITY',
    'MAIL_FROM',
    'PUBLIC_BASE_URL',
    'SMTP_TIMEOUT_MS',
    'MAIL_MAX_ATTEMPTS',
    'MAIL_RETRY_BASE_MS',
    'MAIL_RETRY_MAX_MS',
    'MAIL_LEASE_MS',
    'MAIL_POLL_INTERVAL_MS',
    'MAIL_CONCURRENCY',
    'NOTIFICATIONS_EVENT_ACK_WAIT_MS',
    'DASHBOARD_GRPC_ADDRESS',
    'TEST_RECEIPTS_PER_ACCOUNT_HOUR',
    'TEST_RECEIPTS_TO_ANY_ADDRESS',
    'LOG_LEVEL',
    ...EVENT_RETENTION_KEYS,
  ],
  additionalProperties: false,
};

export function loadNotificationsConfig(env: NodeJS.ProcessEnv = process.env): NotificationsConfig {
  const config = checkEventRetention(loadConfig(schema, env));
  // A malformed key is a deployment error: refuse to start rather than refuse every invitation later.
  if (config.SECRETS_ENCRYPTION_KEYS !== undefined && config.SECRETS_ENCRYPTION_KEYS.trim() !== '')
    parseEncryptionKeys(config.SECRETS_ENCRYPTION_KEYS);
  if ((config.SMTP_USER === undefined) !== (config.SMTP_PASSWORD === undefined)) {
    throw new Error('SMTP_USER and SMTP_PASSWORD go together: set both or neither');
  }
  // A mail in flight must finish (or time out) before its lease lets another worker send it again.
  if (config.MAIL_LEASE_MS < config.SMTP_TIMEOUT_MS * 2 + 1_000) {
    throw new Error('MAIL_LEASE_MS must exceed twice SMTP_TIMEOUT_MS by at least 1s (a mail in flight would be sent twice)');
  }
  return config;
}
