/**
 * Loaded before the service with `node --import @hc/telemetry/register src/main.ts` (the path form
 * `--import ./packages/telemetry/src/register.ts` works from the repository root too). It must run
 * before the application's modules load: the project runs ESM directly, and ESM imports can only be
 * instrumented through a loader hook registered first (import-in-the-middle), ADR 0019.
 *
 * Without an OTLP endpoint or a Prometheus exporter in the OTEL_* variables nothing is loaded: no
 * hook, no SDK, and @opentelemetry/api stays the no-op it is by default.
 */
import { telemetrySettings } from './settings.ts';

const settings = telemetrySettings(process.env, process.argv[1]);
if (settings.traces || settings.metrics) {
  const { startTelemetry } = await import('./sdk.ts');
  await startTelemetry(settings);
}
