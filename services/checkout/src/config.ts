import { loadConfig, type JSONSchemaType } from '@hc/config';
import { checkEventRetention, EVENT_RETENTION_KEYS, EVENT_RETENTION_SCHEMA_PROPERTIES, type EventRetention } from '@hc/events';

/** With the deployment's event retention (EVENTS_*, @hc/events: streams, outbox and processed records). */
export interface CheckoutConfig extends EventRetention {
  /** PostgreSQL database owned by this service alone. */
  CHECKOUT_DATABASE_URL: string;
  /** host:port the gRPC server binds (port 0 picks a free one). */
  CHECKOUT_GRPC_ADDRESS: string;
  /** Public address of the platform; hosted pages live under {PUBLIC_BASE_URL}/pay/{id}. */
  PUBLIC_BASE_URL: string;
  /** host:port of the settlement gRPC service. */
  SETTLEMENT_GRPC_ADDRESS: string;
  /** Deadline of calls to settlement; past it, start answers 502 network_unavailable. */
  SETTLEMENT_TIMEOUT_MS: number;
  /**
   * host:port of the accounts gRPC service (hc.accounts.v1.MerchantAdminService), where the buyer's
   * side reads the account's current wallet, fee and status (docs/adr/0037, 0085). Checkout never calls
   * the gateway.
   */
  ACCOUNTS_GRPC_ADDRESS: string;
  /** Deadline of those reads; past it the buyer's action answers service_unavailable (try again). */
  ACCOUNTS_TIMEOUT_MS: number;
  /** NATS server with JetStream; payment events are published there through the outbox. */
  NATS_URL: string;
  /** Prefix of every subject and stream name (empty in production; per test file in tests). */
  NATS_SUBJECT_PREFIX: string;
  /** How often the sweeper expires unpaid payments past expiry (payment.expired within 5 minutes). */
  EXPIRY_SWEEP_INTERVAL_MS: number;
  LOG_LEVEL: string;
}

const schema: JSONSchemaType<CheckoutConfig> = {
  type: 'object',
  properties: {
    CHECKOUT_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_checkout' },
    CHECKOUT_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50051' },
    PUBLIC_BASE_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'http://127.0.0.1:8080' },
    SETTLEMENT_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50052' },
    SETTLEMENT_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60_000, default: 5000 },
    ACCOUNTS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50055' },
    ACCOUNTS_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60_000, default: 5000 },
    NATS_URL: { type: 'string', default: 'nats://127.0.0.1:4222' },
    NATS_SUBJECT_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]*$', default: '' },
    EXPIRY_SWEEP_INTERVAL_MS: { type: 'integer', minimum: 100, maximum: 300_000, default: 30_000 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    ...EVENT_RETENTION_SCHEMA_PROPERTIES,
  },
  required: [
    'CHECKOUT_DATABASE_URL',
    'CHECKOUT_GRPC_ADDRESS',
    'PUBLIC_BASE_URL',
    'SETTLEMENT_GRPC_ADDRESS',
    'SETTLEMENT_TIMEOUT_MS',
    'ACCOUNTS_GRPC_ADDRESS',
    'ACCOUNTS_TIMEOUT_MS',
    'NATS_URL',
    'NATS_SUBJECT_PREFIX',
    'EXPIRY_SWEEP_INTERVAL_MS',
    'LOG_LEVEL',
    ...EVENT_RETENTION_KEYS,
  ],
  additionalProperties: false,
};

export function loadCheckoutConfig(env: NodeJS.ProcessEnv = process.env): CheckoutConfig {
  return checkEventRetention(loadConfig(schema, env));
}
