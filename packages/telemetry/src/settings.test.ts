import { describe, expect, it } from '@jest/globals';
import { serviceNameFromEntry, telemetrySettings } from './settings.ts';

const MAIN = '/app/services/webhooks/src/main.ts';

describe('telemetrySettings', () => {
  it('is off without an OTLP endpoint or a Prometheus exporter', () => {
    expect(telemetrySettings({}, MAIN)).toEqual({ traces: false, metrics: false, serviceName: 'hc-webhooks' });
  });

  it('turns traces and metrics on with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, MAIN)).toMatchObject({
      traces: true,
      metrics: true,
    });
  });

  it('honours per-signal endpoints and exporter lists', () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }, MAIN)).toMatchObject({
      traces: true,
      metrics: false,
    });
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }, MAIN)).toMatchObject({
      traces: false,
      metrics: true,
    });
    expect(telemetrySettings({ OTEL_METRICS_EXPORTER: 'prometheus' }, MAIN)).toMatchObject({ traces: false, metrics: true });
  });

  it('is off whatever else is set when OTEL_SDK_DISABLED=true', () => {
    expect(telemetrySettings({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, MAIN)).toMatchObject({
      traces: false,
      metrics: false,
    });
  });

  it('names the service hc-<service> unless OTEL_SERVICE_NAME says otherwise', () => {
    expect(serviceNameFromEntry('/app/services/gateway/src/main.ts')).toBe('hc-gateway');
    expect(serviceNameFromEntry('tools/platform/src/platform.ts')).toBe('hc-platform');
    expect(telemetrySettings({ OTEL_SERVICE_NAME: 'checkout-eu' }, MAIN).serviceName).toBe('checkout-eu');
  });
});
