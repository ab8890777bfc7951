import { loadConfig, type JSONSchemaType } from '@hc/config';

export interface GatewayConfig {
  /**
   * PostgreSQL database owned by the gateway: idempotency records and rate-limit windows. (Its old
   * merchant_accounts and api_keys tables are read by no code since accounts owns them, docs/adr/0086.)
   */
  GATEWAY_DATABASE_URL: string;
  /** Address the HTTP server binds. */
  GATEWAY_HOST: string;
  /** Port the HTTP server binds (0 picks a free one). */
  GATEWAY_PORT: number;
  /** host:port of the checkout gRPC service. */
  CHECKOUT_GRPC_ADDRESS: string;
  /** host:port of the customers gRPC service. */
  CUSTOMERS_GRPC_ADDRESS: string;
  /**
   * host:port of the accounts gRPC service: the key directory the gateway authenticates with and whose
   * change feed keeps its key cache exact (docs/adr/0085).
   */
  ACCOUNTS_GRPC_ADDRESS: string;
  /** host:port of the webhooks gRPC service (GET /v1/events and the operator CLI). */
  WEBHOOKS_GRPC_ADDRESS: string;
  /** Deadline of each gRPC call the gateway makes, in milliseconds. */
  GRPC_TIMEOUT_MS: number;
  /**
   * Grouped calls running at once for creates, reads by id and payment lists to checkout, and for
   * customer lists to customers (docs/adr/0064, 0113): a call that arrives while that many of its kind
   * are in flight goes out in the next group. 0: every call alone. (Named before the customers' lists.)
   */
  CHECKOUT_GROUPED_CALLS: number;
  /**
   * A grouped call to checkout still running after this many milliseconds no longer holds back the
   * calls behind it: they go out in a group of their own (docs/adr/0071). 0: calls wait however long.
   */
  CHECKOUT_GROUPED_CALL_STALL_MS: number;
  /** Requests per minute per account, across all its keys and both modes (spec: about 120). */
  RATE_LIMIT_REQUESTS_PER_MINUTE: number;
  /** Session starts per minute per account (spec: about 12). */
  RATE_LIMIT_STARTS_PER_MINUTE: number;
  /**
   * GET /v1/listen long polls per minute per account, a budget of their own so a developer's
   * `hosted-checkout listen` never spends the account's request budget (issue 44).
   */
  RATE_LIMIT_LISTEN_PER_MINUTE: number;
  /** How long the request owning an Idempotency-Key may run before a retry may take over. */
  IDEMPOTENCY_LOCK_MS: number;
  /** How long a duplicate waits for the first request with its key before answering 409. */
  IDEMPOTENCY_WAIT_MS: number;
  /**
   * How long a customers or orders read (and the operator's erase and note) waits for the caller's
   * answered writes to be applied before answering 503 catching_up (docs/adr/0011).
   */
  CUSTOMERS_READ_WAIT_MS: number;
  LOG_LEVEL: string;
}

const schema: JSONSchemaType<GatewayConfig> = {
  type: 'object',
  properties: {
    GATEWAY_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_gateway' },
    GATEWAY_HOST: { type: 'string', default: '127.0.0.1' },
    GATEWAY_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    CHECKOUT_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50051' },
    CUSTOMERS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50053' },
    ACCOUNTS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50055' },
    WEBHOOKS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50054' },
    GRPC_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60_000, default: 5000 },
    CHECKOUT_GROUPED_CALLS: { type: 'integer', minimum: 0, maximum: 64, default: 1 },
    CHECKOUT_GROUPED_CALL_STALL_MS: { type: 'integer', minimum: 0, maximum: 60_000, default: 100 },
    RATE_LIMIT_REQUESTS_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 120 },
    RATE_LIMIT_STARTS_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 12 },
    RATE_LIMIT_LISTEN_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 60 },
    IDEMPOTENCY_LOCK_MS: { type: 'integer', minimum: 1000, maximum: 600_000, default: 30_000 },
    IDEMPOTENCY_WAIT_MS: { type: 'integer', minimum: 0, maximum: 60_000, default: 5000 },
    CUSTOMERS_READ_WAIT_MS: { type: 'integer', minimum: 0, maximum: 10_000, default: 2000 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
  required: [
    'GATEWAY_DATABASE_URL',
    'GATEWAY_HOST',
    'GATEWAY_PORT',
    'CHECKOUT_GRPC_ADDRESS',
    'CUSTOMERS_GRPC_ADDRESS',
    'ACCOUNTS_GRPC_ADDRESS',
    'WEBHOOKS_GRPC_ADDRESS',
    'GRPC_TIMEOUT_MS',
    'CHECKOUT_GROUPED_CALLS',
    'CHECKOUT_GROUPED_CALL_STALL_MS',
    'RATE_LIMIT_REQUESTS_PER_MINUTE',
    'RATE_LIMIT_STARTS_PER_MINUTE',
    'RATE_LIMIT_LISTEN_PER_MINUTE',
    'IDEMPOTENCY_LOCK_MS',
    'IDEMPOTENCY_WAIT_MS',
    'CUSTOMERS_READ_WAIT_MS',
    'LOG_LEVEL',
  ],
  additionalProperties: false,
};

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(schema, env);
}
