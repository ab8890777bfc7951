import { loadConfig, type JSONSchemaType } from '@hc/config';
import { checkEventRetention, EVENT_RETENTION_KEYS, EVENT_RETENTION_SCHEMA_PROPERTIES, type EventRetention } from '@hc/events';

/** With the deployment's event retention (EVENTS_*, @hc/events: streams, outbox and processed records). */
export interface AccountsConfig extends EventRetention {
  /** PostgreSQL database owned by this service alone: merchant accounts, API keys, their change feed. */
  ACCOUNTS_DATABASE_URL: string;
  /**
   * host:port the gRPC server binds (port 0 picks a free one): the merchant admin service (dashboard,
   * checkout, settlement), the operator's service (operator CLI) and the key directory (gateway).
   * Never behind the front router or the Ingress.
   */
  ACCOUNTS_GRPC_ADDRESS: string;
  /** NATS server with JetStream: account events are published there. */
  NATS_URL: string;
  /** Prefix of every subject and stream name (empty in production; per test file in tests). */
  NATS_SUBJECT_PREFIX: string;
  LOG_LEVEL: string;
}

const schema: JSONSchemaType<AccountsConfig> = {
  type: 'object',
  properties: {
    ACCOUNTS_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_accounts' },
    ACCOUNTS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50055' },
    NATS_URL: { type: 'string', default: 'nats://127.0.0.1:4222' },
    NATS_SUBJECT_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]*$', default: '' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    ...EVENT_RETENTION_SCHEMA_PROPERTIES,
  },
  required: ['ACCOUNTS_DATABASE_URL', 'ACCOUNTS_GRPC_ADDRESS', 'NATS_URL', 'NATS_SUBJECT_PREFIX', 'LOG_LEVEL', ...EVENT_RETENTION_KEYS],
  additionalProperties: false,
};

export function loadAccountsConfig(env: NodeJS.ProcessEnv = process.env): AccountsConfig {
  return checkEventRetention(loadConfig(schema, env));
}
