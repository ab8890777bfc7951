import { describe, expect, it } from '@jest/globals';
import { deliverySettings, loadWebhooksConfig } from './config.ts';

describe('webhooks config', () => {
  it('works with no variables set', () => {
    const config = loadWebhooksConfig({});
    expect(config).toMatchObject({ WEBHOOKS_GRPC_ADDRESS: '127.0.0.1:50054', WEBHOOKS_ALLOW_PRIVATE_TARGETS: false });
    const settings = deliverySettings(config);
    expect(settings).toMatchObject({
      timeoutMs: 10_000,
      secretOverlapMs: 86_400_000,
      disableAfterFailingMs: 5 * 86_400_000,
      failingAlertAfterMs: 6 * 3_600_000,
      logRetentionMs: 30 * 86_400_000,
      concurrencyPerEndpoint: 16,
      concurrencyPerFailingEndpoint: 2,
    });
    expect(settings.retrySchedule).toHaveLength(12);
  });

  it('takes a shortened schedule and refuses nonsense', () => {
    expect(deliverySettings(loadWebhooksConfig({ WEBHOOKS_RETRY_SCHEDULE: '0s,100ms,200ms' })).retrySchedule).toEqual([0, 100, 200]);
    expect(() => loadWebhooksConfig({ WEBHOOKS_RETRY_SCHEDULE: '0s, 5 minutes' })).toThrow(/WEBHOOKS_RETRY_SCHEDULE/);
    expect(() => loadWebhooksConfig({ WEBHOOKS_DELIVERY_TIMEOUT: '30s', WEBHOOKS_LEASE: '20s' })).toThrow(/WEBHOOKS_LEASE/);
    // A failing endpoint never gets more slots than a healthy one.
    expect(() => loadWebhooksConfig({ WEBHOOKS_CONCURRENCY_PER_ENDPOINT: '4', WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT: '8' })).toThrow(
      /WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT/,
    );
  });

  it('keeps the delivery log 30 days by default, and never shorter than a day or than the retry schedule', () => {
    expect(() => loadWebhooksConfig({ WEBHOOKS_LOG_RETENTION: '12h' })).toThrow(/WEBHOOKS_LOG_RETENTION/);
    expect(() => loadWebhooksConfig({ WEBHOOKS_LOG_RETENTION: '2d' })).toThrow(/WEBHOOKS_LOG_RETENTION/);
    expect(deliverySettings(loadWebhooksConfig({ WEBHOOKS_LOG_RETENTION: '3d' })).logRetentionMs).toBe(3 * 86_400_000);
  });
});
