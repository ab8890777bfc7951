import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import type { TelemetrySettings } from './settings.ts';

import { onTelemetryShutdown } from './lifecycle.ts';

let started = false;

/**
 * Starts @opentelemetry/sdk-node, which reads every other OTEL_* variable itself (protocol incl.
 * http/json, sampler, resource attributes, metric exporters and intervals). Instrumented: inbound and
 * outbound HTTP (node:http and fetch), Express routes, gRPC client and server calls. The ESM hook only
 * wraps the modules these instrumentations ask for.
 */
export async function startTelemetry(settings: TelemetrySettings): Promise<void> {
  if (started) return;
  process.env['OTEL_SERVICE_NAME'] = settings.serviceName;
  if (!settings.traces) process.env['OTEL_TRACES_EXPORTER'] = 'none';
  if (!settings.metrics) process.env['OTEL_METRICS_EXPORTER'] = 'none';
  // Logs go to stdout as JSON (pino) with trace ids; the SDK's log exporter stays off unless asked for.
  process.env['OTEL_LOGS_EXPORTER'] ??= 'none';

  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [{ NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation }, { GrpcInstrumentation }, { UndiciInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-express'),
      import('@opentelemetry/instrumentation-grpc'),
      import('@opentelemetry/instrumentation-undici'),
    ]);
  const sdk = new NodeSDK({
    instrumentations: [
      // Probes would drown the traces: health checks are not traced.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|livez)\b/.test(request.url ?? '') }),
      new ExpressInstrumentation(),
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  started = true;
  onTelemetryShutdown(() => sdk.shutdown());
}
