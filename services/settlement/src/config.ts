import { ConfigError, loadConfig, type JSONSchemaType } from '@hc/config';
import { DOLLAR_COINS, type DollarCoin } from './domain/coins.ts';
import { DEFAULT_FX_RATES_USD, parseFxTable, type FxTable } from './domain/fx.ts';

export interface SettlementConfig {
  /** PostgreSQL database owned by this service alone. */
  SETTLEMENT_DATABASE_URL: string;
  /** host:port the gRPC server binds (port 0 picks a free one). */
  SETTLEMENT_GRPC_ADDRESS: string;
  /** USD per unit of each currency, used when a payment's USD value is locked. */
  FX_RATES_USD: FxTable;
  /** Coin the Test-mode sandbox delivers. */
  SANDBOX_COIN: DollarCoin;
  LOG_LEVEL: string;
}

/** The environment as read: FX_RATES_USD is still its JSON text. */
type SettlementEnv = Omit<SettlementConfig, 'FX_RATES_USD'> & { FX_RATES_USD: string };

const schema: JSONSchemaType<SettlementEnv> = {
  type: 'object',
  properties: {
    SETTLEMENT_DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/hc_settlement' },
    SETTLEMENT_GRPC_ADDRESS: { type: 'string', minLength: 3, default: '127.0.0.1:50052' },
    FX_RATES_USD: { type: 'string', minLength: 2, default: JSON.stringify(DEFAULT_FX_RATES_USD) },
    SANDBOX_COIN: { type: 'string', enum: [...DOLLAR_COINS], default: 'polygon_usdc' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
  required: ['SETTLEMENT_DATABASE_URL', 'SETTLEMENT_GRPC_ADDRESS', 'FX_RATES_USD', 'SANDBOX_COIN', 'LOG_LEVEL'],
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
  return { ...raw, FX_RATES_USD: rates };
}
