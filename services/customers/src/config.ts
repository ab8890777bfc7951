import { loadConfig, type JSONSchemaType } from '@hc/config';
import { checkEventRetention, EVENT_RETENTION_KEYS, EVENT_RETENTION_SCHEMA_PROPERTIES, type EventRetention } from '@hc/events';

/** With the deployment's event retention (EVENTS_*, @hc/events: streams, outbox and processed records). */
export interface CustomersConfig extends EventRetention {
  /** PostgreSQL database owned by this service alone. */
  CUSTOMERS_DATABASE_URL: string;
  /** host:port the gRPC server binds (port 0 picks a free one). */
  CUSTOMERS_GRPC_ADDRESS: string;
  /** NATS server with JetStream: checkout events are read there, customer events published there. */
  NATS_URL: string;
  /** Prefix of every subject and stream name (empty in production; per test file in tests). */
  NATS_SUBJECT_PREFIX: string;
  LOG_LEVEL: string;
  /**
   * How long a checkout event pulled by this service may stay unacknowledged before NATS hands it to
   * another (or the restarted) process. Short, because after a crash (SIGKILL) the messages the dead
   * process had pulled wait this long, and customers reads wait on them (read barrier, 10 s at most):
   * at 30 s reads answered 503 for up to 30 s after a crash. Handlers are idempotent, so an early
   * redelivery of a slow message only costs a repeat.
   */
  CUSTOMERS_EVENT_ACK_WAIT_MS: number;
}

const schema: JSONSchemaType<CustomersConfig> = {
  type: 'object',
  properties: {
    CUSTOMERS_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_customers' },
    CUSTOMERS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50053' },
    NATS_URL: { type: 'string', default: 'nats://127.0.0.1:4222' },
    NATS_SUBJECT_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]*$', default: '' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    CUSTOMERS_EVENT_ACK_WAIT_MS: { type: 'integer', minimum: 1_000, maximum: 300_000, default: 5_000 },
    ...EVENT_RETENTION_SCHEMA_PROPERTIES,
  },
  required: [
    'CUSTOMERS_DATABASE_URL',
    'CUSTOMERS_GRPC_ADDRESS',
    'NATS_URL',
    'NATS_SUBJECT_PREFIX',
    'LOG_LEVEL',
    'CUSTOMERS_EVENT_ACK_WAIT_MS',
    ...EVENT_RETENTION_KEYS,
  ],
  additionalProperties: false,
};

export function loadCustomersConfig(env: NodeJS.ProcessEnv = process.env): CustomersConfig {
  return checkEventRetention(loadConfig(schema, env));
}
