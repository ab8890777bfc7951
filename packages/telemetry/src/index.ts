export { telemetrySettings, serviceNameFromEntry } from './settings.ts';
export type { TelemetrySettings, Environment } from './settings.ts';
export { shutdownTelemetry } from './lifecycle.ts';
