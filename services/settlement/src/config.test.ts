import { DEFAULT_EVENT_RETENTION } from '@hc/events';
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@hc/config';
import { LOCAL_NOTICE_SIGNING_SECRET, loadSettlementConfig } from './config.ts';

describe('settlement config', () => {
  it('works on a fresh machine with no variables set', () => {
    expect(loadSettlementConfig({})).toEqual({
      SETTLEMENT_DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/hc_settlement',
      SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:50052',
      FX_RATES_USD: { USD: '1', EUR: '1.08', GBP: '1.27', CAD: '0.73', AUD: '0.66' },
      SANDBOX_COIN: 'polygon_usdc',
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_SUBJECT_PREFIX: '',
      PROCESSOR_URL: 'http://127.0.0.1:8090',
      PROCESSOR_TIMEOUT_MS: 3000,
      SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:8091',
      NOTICE_SIGNING_SECRET: LOCAL_NOTICE_SIGNING_SECRET,
      CHAIN_RPC_URL: 'http://127.0.0.1:8090',
      CHAIN_CHECK_INTERVAL_MS: 30_000,
      LOG_LEVEL: 'info',
      ...DEFAULT_EVENT_RETENTION,
    });
  });

  it('reads FX rates as JSON', () => {
    const FX_RATES_USD = '{"USD":"1","EUR":"1.1","GBP":"1.3","CAD":"0.7","AUD":"0.65"}';
    expect(loadSettlementConfig({ FX_RATES_USD }).FX_RATES_USD).toEqual({ USD: '1', EUR: '1.1', GBP: '1.3', CAD: '0.7', AUD: '0.65' });
  });

  it('stops the boot on a bad FX table or sandbox coin', () => {
    expect(() => loadSettlementConfig({ FX_RATES_USD: '{"USD":"1"}' })).toThrow(ConfigError);
    expect(() => loadSettlementConfig({ FX_RATES_USD: '{"USD":"1"}' })).toThrow(/EUR is missing/);
    expect(() => loadSettlementConfig({ SANDBOX_COIN: 'polygon_matic' })).toThrow(ConfigError);
  });

  it('stops the boot on a notice secret that is not a Standard Webhooks secret, or a processor URL that is not http(s)', () => {
    expect(() => loadSettlementConfig({ NOTICE_SIGNING_SECRET: 'hunter2' })).toThrow(/NOTICE_SIGNING_SECRET/);
    expect(() => loadSettlementConfig({ PROCESSOR_URL: 'ftp://processor' })).toThrow(/PROCESSOR_URL/);
    expect(() => loadSettlementConfig({ CHAIN_CHECK_INTERVAL_MS: '5' })).toThrow(/CHAIN_CHECK_INTERVAL_MS/);
  });
});
