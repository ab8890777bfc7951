import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';

class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface MetricCapture {
  /** The sum of a counter's points whose attributes include `attributes`. */
  counter(name: string, attributes?: Readonly<Record<string, string>>): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Registers an in-process meter provider as the global one, so instruments taken from
 * `metrics.getMeter` from now on are recorded and can be read by the test (no exporter, no network).
 */
export function captureMetrics(): MetricCapture {
  const reader = new OnDemandReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  return {
    async counter(name, attributes = {}) {
      const { resourceMetrics } = await reader.collect();
      let total = 0;
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name !== name) continue;
          for (const point of metric.dataPoints as DataPoint<number>[]) {
            if (Object.entries(attributes).every(([k, v]) => point.attributes[k] === v)) total += point.value;
          }
        }
      }
      return total;
    },
    async stop() {
      metrics.disable();
      await provider.shutdown();
    },
  };
}
