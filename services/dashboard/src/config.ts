import { loadConfig, type JSONSchemaType } from '@hc/config';
import { parsePublicKeys, parseSigningKey, StatementKeyError, type StatementSigner } from '@hc/exports';
import { parseEncryptionKeys } from '@hc/secrets';

export interface DashboardConfig {
  /** PostgreSQL database owned by the dashboard: its users, sessions, sign-in attempts, set-password links. */
  DASHBOARD_DATABASE_URL: string;
  /** Address and port the browser-facing HTTP server binds (0 picks a free port). */
  DASHBOARD_HOST: string;
  DASHBOARD_PORT: number;
  /** host:port of the internal gRPC listener the operator CLI uses to make users (DashboardUsersService). */
  DASHBOARD_GRPC_ADDRESS: string;
  /** The platform's one public address; the dashboard lives under {PUBLIC_BASE_URL}/dashboard. */
  PUBLIC_BASE_URL: string;
  /** The accounts gRPC service: the signed-in user's account and API keys (docs/adr/0028, 0085). */
  ACCOUNTS_GRPC_ADDRESS: string;
  CHECKOUT_GRPC_ADDRESS: string;
  CUSTOMERS_GRPC_ADDRESS: string;
  WEBHOOKS_GRPC_ADDRESS: string;
  /** Receipt and alert settings, the mail log (Settings → Emails). Not part of readiness: only that page needs it. */
  NOTIFICATIONS_GRPC_ADDRESS: string;
  /** Deadline of each gRPC call, in milliseconds. */
  GRPC_TIMEOUT_MS: number;
  /** Proxies in front (front router, Ingress) whose X-Forwarded-For is trusted for the sign-in limits. */
  DASHBOARD_TRUST_PROXY_HOPS: number;
  /** Session cookies marked Secure (HTTPS only). Off only for local http:// development. */
  DASHBOARD_SECURE_COOKIES: boolean;
  /**
   * Keys that encrypt two-factor seeds at rest, `keyId:base64key[,…]`, the first one current
   * (@hc/secrets, docs/adr/0042). No default: the dashboard refuses to start without it (migrations do not need it).
   */
  SECRETS_ENCRYPTION_KEYS?: string;
  /**
   * The key that signs settlement statements, `keyId:base64` of its Ed25519 PKCS#8 DER (a Secret;
   * docs/adr/0088). Without it the dashboard runs, and its statement downloads answer 503.
   */
  STATEMENT_SIGNING_KEY?: string;
  /** The published statement keys (`keyId:base64 SPKI DER`, …): when given, the signing key must be among them. */
  STATEMENT_PUBLIC_KEYSET?: string;
  LOG_LEVEL: string;
}

const address = (fallback: string) => ({ type: 'string', minLength: 3, default: fallback }) as const;

const schema: JSONSchemaType<DashboardConfig> = {
  type: 'object',
  properties: {
    DASHBOARD_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_dashboard' },
    DASHBOARD_HOST: { type: 'string', default: '127.0.0.1' },
    DASHBOARD_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8083 },
    DASHBOARD_GRPC_ADDRESS: address('127.0.0.1:50056'),
    PUBLIC_BASE_URL: { type: 'string', format: 'uri', default: 'http://127.0.0.1:8080' },
    ACCOUNTS_GRPC_ADDRESS: address('127.0.0.1:50055'),
    CHECKOUT_GRPC_ADDRESS: address('127.0.0.1:50051'),
    CUSTOMERS_GRPC_ADDRESS: address('127.0.0.1:50053'),
    WEBHOOKS_GRPC_ADDRESS: address('127.0.0.1:50054'),
    NOTIFICATIONS_GRPC_ADDRESS: address('127.0.0.1:50058'),
    GRPC_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60_000, default: 5000 },
    DASHBOARD_TRUST_PROXY_HOPS: { type: 'integer', minimum: 0, maximum: 10, default: 0 },
    DASHBOARD_SECURE_COOKIES: { type: 'boolean', default: true },
    SECRETS_ENCRYPTION_KEYS: { type: 'string', nullable: true },
    STATEMENT_SIGNING_KEY: { type: 'string', nullable: true },
    STATEMENT_PUBLIC_KEYSET: { type: 'string', nullable: true },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
  required: [
    'DASHBOARD_DATABASE_URL',
    'DASHBOARD_HOST',
    'DASHBOARD_PORT',
    'DASHBOARD_GRPC_ADDRESS',
    'PUBLIC_BASE_URL',
    'ACCOUNTS_GRPC_ADDRESS',
    'CHECKOUT_GRPC_ADDRESS',
    'CUSTOMERS_GRPC_ADDRESS',
    'WEBHOOKS_GRPC_ADDRESS',
    'NOTIFICATIONS_GRPC_ADDRESS',
    'GRPC_TIMEOUT_MS',
    'DASHBOARD_TRUST_PROXY_HOPS',
    'DASHBOARD_SECURE_COOKIES',
    'LOG_LEVEL',
  ],
  additionalProperties: false,
};

export function loadDashboardConfig(env: NodeJS.ProcessEnv = process.env): DashboardConfig {
  const config = loadConfig(schema, env);
  // A malformed key list stops the process here; a missing one stops the dashboard at start (dashboard-server.ts).
  if (config.SECRETS_ENCRYPTION_KEYS !== undefined) parseEncryptionKeys(config.SECRETS_ENCRYPTION_KEYS);
  statementSigner(config);
  return config;
}

/**
 * The statement signer of this configuration, if it has a key. A malformed key, or one that the
 * published keys do not list as it is, stops the dashboard at start: statements signed with a key
 * nobody can look up would fail every verification.
 */
export function statementSigner(config: DashboardConfig): StatementSigner | undefined {
  if (!config.STATEMENT_SIGNING_KEY?.trim()) return undefined;
  const signer = parseSigningKey(config.STATEMENT_SIGNING_KEY);
  if (config.STATEMENT_PUBLIC_KEYSET?.trim()) {
    const published = parsePublicKeys(config.STATEMENT_PUBLIC_KEYSET).get(signer.keyId);
    if (!published?.equals(signer.publicKey))
      throw new StatementKeyError(
        `STATEMENT_SIGNING_KEY ${signer.keyId} is not published as it is in STATEMENT_PUBLIC_KEYSET: publish its public key first (docs/adr/0088)`,
      );
  }
  return signer;
}
