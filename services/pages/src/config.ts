import { loadConfig, type JSONSchemaType } from '@hc/config';
import { parsePublicKeys } from '@hc/exports';

export interface PagesConfig {
  /** Address the HTTP server binds. */
  PAGES_HOST: string;
  /** Port the HTTP server binds (0 picks a free one). */
  PAGES_PORT: number;
  /** host:port of the checkout gRPC service (its HostedCheckoutService). */
  CHECKOUT_GRPC_ADDRESS: string;
  /**
   * host:port of the notifications gRPC service (its ReceiptPolicyService): the page promises a
   * receipt only when one is sent. Unset: the page promises none.
   */
  NOTIFICATIONS_GRPC_ADDRESS?: string;
  /**
   * host:port of the accounts gRPC service (its BrandService): the shop's logo and accent colour
   * (docs/adr/0096). Unset: every page has the platform's look.
   */
  ACCOUNTS_GRPC_ADDRESS?: string;
  /** Deadline of each gRPC call, in milliseconds. */
  GRPC_TIMEOUT_MS: number;
  /**
   * How many proxies in front of the pages set X-Forwarded-For (the front router locally, the Ingress
   * in Kubernetes): the buyer's address, which the per-IP limits count, is taken that many hops back.
   */
  PAGES_TRUST_PROXY_HOPS: number;
  /** Page views (and live-status polls) per minute per buyer address. */
  PAGES_VIEWS_PER_MINUTE: number;
  /** Page actions (start, provider, Test outcomes) per minute per buyer address. */
  PAGES_ACTIONS_PER_MINUTE: number;
  /**
   * The platform's statement public keys, `keyId:base64 SPKI DER[,…]`, the current one and every
   * retired one (docs/adr/0088), published at /.well-known/hc-statement-keys.json. Not a secret.
   */
  STATEMENT_PUBLIC_KEYSET?: string;
  LOG_LEVEL: string;
}

const schema: JSONSchemaType<PagesConfig> = {
  type: 'object',
  properties: {
    PAGES_HOST: { type: 'string', default: '127.0.0.1' },
    PAGES_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8082 },
    CHECKOUT_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50051' },
    NOTIFICATIONS_GRPC_ADDRESS: { type: 'string', minLength: 3, nullable: true },
    ACCOUNTS_GRPC_ADDRESS: { type: 'string', minLength: 3, nullable: true },
    GRPC_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60_000, default: 5000 },
    PAGES_TRUST_PROXY_HOPS: { type: 'integer', minimum: 0, maximum: 10, default: 0 },
    PAGES_VIEWS_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 300 },
    PAGES_ACTIONS_PER_MINUTE: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 20 },
    STATEMENT_PUBLIC_KEYSET: { type: 'string', nullable: true },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
  required: [
    'PAGES_HOST',
    'PAGES_PORT',
    'CHECKOUT_GRPC_ADDRESS',
    'GRPC_TIMEOUT_MS',
    'PAGES_TRUST_PROXY_HOPS',
    'PAGES_VIEWS_PER_MINUTE',
    'PAGES_ACTIONS_PER_MINUTE',
    'LOG_LEVEL',
  ],
  additionalProperties: false,
};

export function loadPagesConfig(env: NodeJS.ProcessEnv = process.env): PagesConfig {
  const config = loadConfig(schema, env);
  // A malformed key list stops the pages at start, not the first accountant who fetches it.
  if (config.STATEMENT_PUBLIC_KEYSET !== undefined) parsePublicKeys(config.STATEMENT_PUBLIC_KEYSET);
  return config;
}
