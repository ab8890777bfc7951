import { loadConfig, type JSONSchemaType } from '@hc/config';

export interface EmulatorConfig {
  EMULATOR_HOST: string;
  /** Port of the processor API, the chain reader and the emulator's own controls (0 picks a free one). */
  EMULATOR_PORT: number;
  /** Settlement's notices listener. */
  EMULATOR_NOTICE_URL: string;
  /** Secret the notices are signed with; settlement verifies with the same one. */
  NOTICE_SIGNING_SECRET: string;
  /** How long a `late` (or `mismatch`) notice waits: longer than settlement's CHAIN_CHECK_INTERVAL_MS. */
  EMULATOR_LATE_NOTICE_MS: number;
  LOG_LEVEL: string;
}

/** Same value as settlement's LOCAL_NOTICE_SIGNING_SECRET: the pair works on one machine with no setup. */
const LOCAL_SECRET = 'whsec_bG9jYWwtZW11bGF0b3Itbm90aWNlLXNlY3JldC0wMDE=';

const schema: JSONSchemaType<EmulatorConfig> = {
  type: 'object',
  properties: {
    EMULATOR_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    EMULATOR_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8090 },
    EMULATOR_NOTICE_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'http://127.0.0.1:8091/notices' },
    NOTICE_SIGNING_SECRET: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/]{32,}={0,2}$', default: LOCAL_SECRET },
    EMULATOR_LATE_NOTICE_MS: { type: 'integer', minimum: 0, maximum: 3_600_000, default: 60_000 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
  required: ['EMULATOR_HOST', 'EMULATOR_PORT', 'EMULATOR_NOTICE_URL', 'NOTICE_SIGNING_SECRET', 'EMULATOR_LATE_NOTICE_MS', 'LOG_LEVEL'],
  additionalProperties: false,
};

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  return loadConfig(schema, env);
}
