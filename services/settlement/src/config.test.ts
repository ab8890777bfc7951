import { DEFAULT_EVENT_RETENTION } from '@hc/events';
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@hc/config';
import { Webhook } from 'standardwebhooks';
import { LOCAL_NOTICE_SIGNING_SECRET, loadSettlementConfig, loadSettlementMigrationConfig, publishedSecretWarning } from './config.ts';

// A secret of a deployment's own (Standard Webhooks form), not the emulator's published one.
const OWN_SECRET = 'whsec_c29tZW9uZS1lbHNlcy12ZXJ5LW93bi1ub3RpY2Utc2VjcmV0IQ==';
const LOCAL = { SETTLEMENT_LOCAL_MODE: 'true' };

describe('settlement config', () => {
  it('works on a fresh machine in local mode with no other variable set', () => {
    expect(loadSettlementConfig(LOCAL)).toEqual({
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
      SETTLEMENT_LOCAL_MODE: true,
      CHAIN_RPC_URL: 'http://127.0.0.1:8090',
      CHAIN_CHECK_INTERVAL_MS: 30_000,
      ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:50055',
      ACCOUNTS_TIMEOUT_MS: 5000,
      LOG_LEVEL: 'info',
      ...DEFAULT_EVENT_RETENTION,
    });
  });

  it('reads FX rates as JSON', () => {
    const FX_RATES_USD = '{"USD":"1","EUR":"1.1","GBP":"1.3","CAD":"0.7","AUD":"0.65"}';
    expect(loadSettlementConfig({ ...LOCAL, FX_RATES_USD }).FX_RATES_USD).toEqual({
      USD: '1',
      EUR: '1.1',
      GBP: '1.3',
      CAD: '0.7',
      AUD: '0.65',
    });
  });

  it('stops the boot on a bad FX table or sandbox coin', () => {
    expect(() => loadSettlementConfig({ ...LOCAL, FX_RATES_USD: '{"USD":"1"}' })).toThrow(ConfigError);
    expect(() => loadSettlementConfig({ ...LOCAL, FX_RATES_USD: '{"USD":"1"}' })).toThrow(/EUR is missing/);
    expect(() => loadSettlementConfig({ ...LOCAL, SANDBOX_COIN: 'polygon_matic' })).toThrow(ConfigError);
  });

  it('stops the boot on a notice secret that is not a Standard Webhooks secret, or a processor URL that is not http(s)', () => {
    expect(() => loadSettlementConfig({ ...LOCAL, NOTICE_SIGNING_SECRET: 'hunter2' })).toThrow(/NOTICE_SIGNING_SECRET/);
    expect(() => loadSettlementConfig({ ...LOCAL, PROCESSOR_URL: 'ftp://processor' })).toThrow(/PROCESSOR_URL/);
    expect(() => loadSettlementConfig({ ...LOCAL, CHAIN_CHECK_INTERVAL_MS: '5' })).toThrow(/CHAIN_CHECK_INTERVAL_MS/);
  });

  describe('the notice signing secret (issue 35, item 5)', () => {
    it('is required outside local mode: no secret stops the boot, naming the variable', () => {
      expect(() => loadSettlementConfig({})).toThrow(ConfigError);
      expect(() => loadSettlementConfig({})).toThrow(/NOTICE_SIGNING_SECRET is required/);
      expect(() => loadSettlementConfig({ SETTLEMENT_LOCAL_MODE: 'false' })).toThrow(/NOTICE_SIGNING_SECRET is required/);
    });

    it("refuses the emulator's published secret outside local mode, even when set explicitly", () => {
      expect(() => loadSettlementConfig({ NOTICE_SIGNING_SECRET: LOCAL_NOTICE_SIGNING_SECRET })).toThrow(/published secret/);
    });

    it("takes a deployment's own secret outside local mode, with no warning", () => {
      const config = loadSettlementConfig({ NOTICE_SIGNING_SECRET: OWN_SECRET });
      expect(config).toMatchObject({ NOTICE_SIGNING_SECRET: OWN_SECRET, SETTLEMENT_LOCAL_MODE: false });
      expect(publishedSecretWarning(config)).toBeUndefined();
    });

    it("in local mode uses the emulator's secret when none is set, and says so loudly; an own secret is kept", () => {
      const local = loadSettlementConfig(LOCAL);
      expect(local.NOTICE_SIGNING_SECRET).toBe(LOCAL_NOTICE_SIGNING_SECRET);
      expect(publishedSecretWarning(local)).toMatch(/^LOCAL MODE: .*published secret.*Never run this way with real money\.$/);
      expect(loadSettlementConfig({ ...LOCAL, NOTICE_SIGNING_SECRET: OWN_SECRET }).NOTICE_SIGNING_SECRET).toBe(OWN_SECRET);
    });

    describe('is compared by its key bytes, in its one canonical base64 spelling (issue 47, item 5)', () => {
      const published = LOCAL_NOTICE_SIGNING_SECRET; // whsec_…MDE= : 32 bytes, one '=', two unused bits
      const otherSpellings = {
        'without padding': published.replace(/=+$/, ''),
        'with extra padding': `${published}=`,
        'with other unused bits (F)': published.replace(/E=$/, 'F='),
        'with other unused bits (H)': published.replace(/E=$/, 'H='),
      };

      it.each(Object.entries(otherSpellings))('the published key %s signs notices exactly as the published secret does', (_, spelling) => {
        const at = new Date();
        expect(new Webhook(spelling).sign('msg_1', at, '{}')).toBe(new Webhook(published).sign('msg_1', at, '{}'));
      });

      it.each(Object.entries(otherSpellings))('refuses the published key %s outside local mode', (_, spelling) => {
        expect(() => loadSettlementConfig({ NOTICE_SIGNING_SECRET: spelling })).toThrow(ConfigError);
        expect(() => loadSettlementConfig({ NOTICE_SIGNING_SECRET: spelling })).toThrow(/NOTICE_SIGNING_SECRET/);
      });

      it("refuses an own key's non-canonical spelling in any mode, naming canonical base64", () => {
        const unpadded = OWN_SECRET.replace(/=+$/, '');
        expect(() => loadSettlementConfig({ NOTICE_SIGNING_SECRET: unpadded })).toThrow(/not canonical base64/);
        expect(() => loadSettlementConfig({ ...LOCAL, NOTICE_SIGNING_SECRET: unpadded })).toThrow(/not canonical base64/);
        expect(loadSettlementConfig({ NOTICE_SIGNING_SECRET: OWN_SECRET }).NOTICE_SIGNING_SECRET).toBe(OWN_SECRET);
      });
    });

    it('is not needed by the migration command, which reads only the database URL', () => {
      expect(loadSettlementMigrationConfig({})).toEqual({ SETTLEMENT_DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/hc_settlement' });
    });
  });
});
