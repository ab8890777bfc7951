/**
 * Whether this process exports telemetry, decided from the standard OTEL_* variables alone (no
 * project-specific switch): an operator who sets an OTLP endpoint, or asks for a Prometheus scrape
 * endpoint, gets telemetry; a process with neither loads no SDK at all.
 */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface TelemetrySettings {
  /** Traces are exported over OTLP (an endpoint is set and OTEL_TRACES_EXPORTER is not `none`). */
  readonly traces: boolean;
  /** Metrics are exported over OTLP and/or served for Prometheus (OTEL_METRICS_EXPORTER). */
  readonly metrics: boolean;
  /** `hc-<service>` unless OTEL_SERVICE_NAME says otherwise. */
  readonly serviceName: string;
}

const TRUE = new Set(['true', '1']);

function exporters(value: string | undefined, fallback: string): string[] {
  return (value ?? fallback)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

/** `services/<name>/src/main.ts` → `hc-<name>`; anything else → `hc-<file name>`. */
export function serviceNameFromEntry(entry: string | undefined): string {
  const match = /services[\\/]([^\\/]+)[\\/]/.exec(entry ?? '');
  if (match?.[1]) return `hc-${match[1]}`;
  const file = /([^\\/]+?)(\.[cm]?[jt]s)?$/.exec(entry ?? '')?.[1];
  return `hc-${file ?? 'process'}`;
}

export function telemetrySettings(env: Environment, entry: string | undefined): TelemetrySettings {
  const serviceName = env['OTEL_SERVICE_NAME']?.trim() || serviceNameFromEntry(entry);
  if (TRUE.has((env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase())) return { traces: false, metrics: false, serviceName };
  const otlpEndpoint = (signal: 'TRACES' | 'METRICS'): boolean =>
    Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim());
  const traceExporters = exporters(env['OTEL_TRACES_EXPORTER'], 'otlp');
  const metricExporters = exporters(env['OTEL_METRICS_EXPORTER'], 'otlp');
  return {
    traces: otlpEndpoint('TRACES') && !traceExporters.includes('none') && traceExporters.length > 0,
    metrics:
      !metricExporters.includes('none') &&
      (metricExporters.includes('prometheus') || (metricExporters.includes('otlp') && otlpEndpoint('METRICS'))),
    serviceName,
  };
}
