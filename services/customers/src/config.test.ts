import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@hc/config';
import { DEFAULT_EVENT_RETENTION } from '@hc/events';
import { loadCustomersConfig } from './config.ts';

describe('customers config', () => {
  it('works on a fresh machine with no variables set', () => {
    expect(loadCustomersConfig({})).toEqual({
      CUSTOMERS_DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/hc_customers',
      CUSTOMERS_GRPC_ADDRESS: '127.0.0.1:50053',
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_SUBJECT_PREFIX: '',
      LOG_LEVEL: 'info',
      CUSTOMERS_EVENT_ACK_WAIT_MS: 5_000,
      ...DEFAULT_EVENT_RETENTION,
    });
  });

  it('stops the boot on a bad value', () => {
    expect(() => loadCustomersConfig({ NATS_SUBJECT_PREFIX: 'a.b' })).toThrow(ConfigError);
    expect(() => loadCustomersConfig({ LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    // Under a second, a handler held up by a busy database would see its message redelivered meanwhile.
    expect(() => loadCustomersConfig({ CUSTOMERS_EVENT_ACK_WAIT_MS: '500' })).toThrow(ConfigError);
    expect(loadCustomersConfig({ CUSTOMERS_EVENT_ACK_WAIT_MS: '2000' }).CUSTOMERS_EVENT_ACK_WAIT_MS).toBe(2_000);
  });

  it('refuses processed-message records kept no longer than the stream keeps messages (a redelivery would apply twice)', () => {
    const week = String(7 * 24 * 3_600_000);
    expect(() => loadCustomersConfig({ EVENTS_STREAM_MAX_AGE_MS: week, EVENTS_PROCESSED_RETENTION_MS: week })).toThrow(
      /EVENTS_PROCESSED_RETENTION_MS must exceed EVENTS_STREAM_MAX_AGE_MS/,
    );
    expect(() => loadCustomersConfig({ EVENTS_STREAM_MAX_AGE_MS: '0' })).toThrow(ConfigError);
  });
});
