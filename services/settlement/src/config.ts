import { checkEventRetention, EVENT_RETENTION_KEYS, EVENT_RETENTION_SCHEMA_PROPERTIES, type EventRetention } from '@hc/events';
import { ConfigError, loadConfig, type JSONSchemaType } from '@hc/config';
import { DOLLAR_COINS, type DollarCoin } from './domain/coins.ts';
import { DEFAULT_FX_RATES_USD, parseFxTable, type FxTable } from './domain/fx.ts';

export interface SettlementConfig extends EventRetention {
  /** PostgreSQL database owned by this service alone. */
  SETTLEMENT_DATABASE_URL: string;
  /** host:port the gRPC server binds (port 0 picks a free one). */
  SETTLEMENT_GRPC_ADDRESS: string;
  /** USD per unit of each currency, used when a payment's USD value is locked. */
  FX_RATES_USD: FxTable;
  /** Coin the Test-mode sandbox delivers. */
  SANDBOX_COIN: DollarCoin;
  /** NATS server with JetStream; verdicts are published there through the outbox. */
  NATS_URL: string;
  /** Prefix of every subject and stream name (empty in production; per test file in tests). */
  NATS_SUBJECT_PREFIX: string;
  /** Base URL of the Live processor's API (deposit addresses). */
  PROCESSOR_URL: string;
  /** Deadline of a call to the processor; past it, start answers 502 network_unavailable. Below checkout's SETTLEMENT_TIMEOUT_MS. */
  PROCESSOR_TIMEOUT_MS: number;
  /** host:port of the notices listener (the processor's signed notices; not the merchant API). */
  SETTLEMENT_NOTICES_ADDRESS: string;
  /**
   * Standard Webhooks secret (`whsec_` + base64) the processor signs notices with. A Secret in
   * production; required, and never the emulator's published one, unless SETTLEMENT_LOCAL_MODE.
   */
  NOTICE_SIGNING_SECRET: string;
  /**
   * This settlement runs on one machine with the processor emulator (./scripts/start, tests): the
   * emulator's published notice secret is allowed, and used when NOTICE_SIGNING_SECRET is unset, with
   * a warning at start. Never in a deployment (the Helm chart refuses it).
   */
  SETTLEMENT_LOCAL_MODE: boolean;
  /** Base URL of the chain reader the scheduled status check asks for transfers. */
  CHAIN_RPC_URL: string;
  /** How often the scheduled status check looks at started, unsettled Live payments. */
  CHAIN_CHECK_INTERVAL_MS: number;
  /**
   * host:port of the accounts gRPC service (hc.accounts.v1.MerchantAdminService), where the account's
   * payout wallet is read when the processor asks where to forward (docs/adr/0081, 0085).
   */
  ACCOUNTS_GRPC_ADDRESS: string;
  /** Deadline of that read; past it the processor is told to ask again later. */
  ACCOUNTS_TIMEOUT_MS: number;
  LOG_LEVEL: string;
}

/**
 * The notice secret the local emulator shares with settlement on one machine (./scripts/start, tests).
 * Not a secret: it is published in this repository, so anyone could sign a notice with it, and a notice
 * alone settles a Live payment. Accepted only with SETTLEMENT_LOCAL_MODE (docs/adr/0016).
 */
export const LOCAL_NOTICE_SIGNING_SECRET = 'whsec_bG9jYWwtZW11bGF0b3Itbm90aWNlLXNlY3JldC0wMDE=';

/** The environment as read: FX_RATES_USD is still its JSON text; the notice secret may be missing. */
type SettlementEnv = Omit<SettlementConfig, 'FX_RATES_USD' | 'NOTICE_SIGNING_SECRET'> & {
  FX_RATES_USD: string;
  NOTICE_SIGNING_SECRET?: string;
};

const SECRET_PREFIX = 'whsec_';
const SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{32,}={0,2}$';

const schema: JSONSchemaType<SettlementEnv> = {
  type: 'object',
  properties: {
    SETTLEMENT_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_settlement' },
    SETTLEMENT_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50052' },
    FX_RATES_USD: { type: 'string', minLength: 2, default: JSON.stringify(DEFAULT_FX_RATES_USD) },
    SANDBOX_COIN: { type: 'string', enum: [...DOLLAR_COINS], default: 'polygon_usdc' },
    NATS_URL: { type: 'string', default: 'nats://127.0.0.1:4222' },
    NATS_SUBJECT_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]*$', default: '' },
    PROCESSOR_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'http://127.0.0.1:8090' },
    PROCESSOR_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 30_000, default: 3000 },
    SETTLEMENT_NOTICES_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:8091' },
    NOTICE_SIGNING_SECRET: { type: 'string', pattern: SECRET_PATTERN, nullable: true },
    SETTLEMENT_LOCAL_MODE: { type: 'boolean', default: false },
    CHAIN_RPC_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'http://127.0.0.1:8090' },
    CHAIN_CHECK_INTERVAL_MS: { type: 'integer', minimum: 100, maximum: 3_600_000, default: 30_000 },
    ACCOUNTS_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50055' },
    ACCOUNTS_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60_000, default: 5000 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    ...EVENT_RETENTION_SCHEMA_PROPERTIES,
  },
  required: [
    'SETTLEMENT_DATABASE_URL',
    'SETTLEMENT_GRPC_ADDRESS',
    'FX_RATES_USD',
    'SANDBOX_COIN',
    'NATS_URL',
    'NATS_SUBJECT_PREFIX',
    'PROCESSOR_URL',
    'PROCESSOR_TIMEOUT_MS',
    'SETTLEMENT_NOTICES_ADDRESS',
    'SETTLEMENT_LOCAL_MODE',
    'CHAIN_RPC_URL',
    'CHAIN_CHECK_INTERVAL_MS',
    'ACCOUNTS_GRPC_ADDRESS',
    'ACCOUNTS_TIMEOUT_MS',
    'LOG_LEVEL',
    ...EVENT_RETENTION_KEYS,
  ],
  additionalProperties: false,
};

export function loadSettlementConfig(env: NodeJS.ProcessEnv = process.env): SettlementConfig {
  const raw = loadConfig(schema, env);
  let rates: FxTable;
  try {
    rates = parseFxTable(raw.FX_RATES_USD);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  const secret = noticeSigningSecret(raw.NOTICE_SIGNING_SECRET, raw.SETTLEMENT_LOCAL_MODE);
  return checkEventRetention({ ...raw, FX_RATES_USD: rates, NOTICE_SIGNING_SECRET: secret });
}

/**
 * The secret notices must be signed with. Outside local mode it must be set, and its key must not be
 * the emulator's published one: either would let anyone who read this repository pay a Live payment
 * with a forged notice. In local mode, unset means the emulator's secret. In every mode the base64 must
 * be the one canonical spelling of its key (issue 47 item 5): the verifier decodes leniently (no
 * padding, any pad bits), so a text comparison let `whsec_…MDE` or `…MDF=` through as the published key.
 */
function noticeSigningSecret(given: string | undefined, localMode: boolean): string {
  if (given !== undefined) assertCanonicalSecret(given);
  if (localMode) return given ?? LOCAL_NOTICE_SIGNING_SECRET;
  if (given === undefined)
    throw new ConfigError(
      'Invalid configuration: NOTICE_SIGNING_SECRET is required: the Live processor signs its notices with it ' +
        '(deploy/helm: grpcServices.settlement.secretEnv). Only SETTLEMENT_LOCAL_MODE=true (one machine with the emulator) goes without.',
    );
  if (isPublishedSecret(given))
    throw new ConfigError(
      "Invalid configuration: NOTICE_SIGNING_SECRET is the processor emulator's published secret, with which anyone can " +
        "sign a notice that pays a Live payment. Set the processor's own secret; only SETTLEMENT_LOCAL_MODE=true accepts this one.",
    );
  return given;
}

/** The key bytes of a `whsec_` secret (the schema's pattern has already checked the form). */
function secretKey(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** Decoding and encoding again must give back the text: padding present, unused pad bits zero. */
function assertCanonicalSecret(secret: string): void {
  if (SECRET_PREFIX + secretKey(secret).toString('base64') !== secret)
    throw new ConfigError(
      'Invalid configuration: NOTICE_SIGNING_SECRET is not canonical base64 (padding missing or extra, or stray bits in the last ' +
        "character): write the key exactly as the processor gave it, `whsec_` and standard base64 with '=' padding.",
    );
}

/** Whether the secret's key is the emulator's published key, however it was spelt. */
function isPublishedSecret(secret: string): boolean {
  return secretKey(secret).equals(secretKey(LOCAL_NOTICE_SIGNING_SECRET));
}

/** The warning a settlement logs at start while it accepts notices signed with the published secret. */
export function publishedSecretWarning(config: Pick<SettlementConfig, 'NOTICE_SIGNING_SECRET'>): string | undefined {
  return isPublishedSecret(config.NOTICE_SIGNING_SECRET)
    ? "LOCAL MODE: processor notices signed with the emulator's published secret are accepted. Never run this way with real money."
    : undefined;
}

/** What the migration command needs, and nothing else (the migration Job gets no other variable). */
export function loadSettlementMigrationConfig(env: NodeJS.ProcessEnv = process.env): Pick<SettlementConfig, 'SETTLEMENT_DATABASE_URL'> {
  const { SETTLEMENT_DATABASE_URL } = schema.properties;
  return loadConfig<Pick<SettlementConfig, 'SETTLEMENT_DATABASE_URL'>>(
    { type: 'object', properties: { SETTLEMENT_DATABASE_URL }, required: ['SETTLEMENT_DATABASE_URL'], additionalProperties: false },
    env,
  );
}
