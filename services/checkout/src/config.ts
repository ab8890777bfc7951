import { loadConfig, type JSONSchemaType } from '@hc/config';

export interface CheckoutConfig {
  /** PostgreSQL database owned by this service alone. */
  CHECKOUT_DATABASE_URL: string;
  /** host:port the gRPC server binds (port 0 picks a free one). */
  CHECKOUT_GRPC_ADDRESS: string;
  /** Public address of the platform; hosted pages live under {PUBLIC_BASE_URL}/pay/{id}. */
  PUBLIC_BASE_URL: string;
  LOG_LEVEL: string;
}

const schema: JSONSchemaType<CheckoutConfig> = {
  type: 'object',
  properties: {
    CHECKOUT_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_checkout' },
    CHECKOUT_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50051' },
    PUBLIC_BASE_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'http://127.0.0.1:8080' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
  required: ['CHECKOUT_DATABASE_URL', 'CHECKOUT_GRPC_ADDRESS', 'PUBLIC_BASE_URL', 'LOG_LEVEL'],
  additionalProperties: false,
};

export function loadCheckoutConfig(env: NodeJS.ProcessEnv = process.env): CheckoutConfig {
  return loadConfig(schema, env);
}
