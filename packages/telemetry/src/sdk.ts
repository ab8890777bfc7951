import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { register as registerInThread, supportsSyncHooks } from 'import-in-the-middle/register-hooks.mjs';
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

  // The ESM hook wraps only the modules the instrumentations patch. In this thread (module.registerHooks)
  // where Node allows it: module.register runs the hook on a loader thread of its own, a second V8
  // isolate that held about 55 MB in every process (ADR 0101).
  const inThread = supportsSyncHooks();
  const channel = inThread ? undefined : createAddHookMessageChannel();
  if (channel) register('import-in-the-middle/hook.mjs', import.meta.url, channel.registerOptions);

  const [{ NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation }, { GrpcInstrumentation }, { UndiciInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-express'),
      import('@opentelemetry/instrumentation-grpc'),
      import('@opentelemetry/instrumentation-undici'),
    ]);
  const instrumentations = [
    // Probes would drown the traces: health checks are not traced.
    new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|livez)\b/.test(request.url ?? '') }),
    new ExpressInstrumentation(),
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    new UndiciInstrumentation(),
  ];
  // Before Node 24.11.1 the loader thread learnt the modules through the channel as each Hook was made.
  if (inThread) registerInThread({ include: instrumentations.flatMap((each) => each.getModuleDefinitions().map(({ name }) => name)) });
  const sdk = new NodeSDK({ instrumentations });
  sdk.start();
  await channel?.waitForAllMessagesAcknowledged();
  started = true;
  onTelemetryShutdown(() => sdk.shutdown());
}
