import type { Logger } from 'pino';
import { shutdownTelemetry } from '@hc/telemetry';

/**
 * Graceful shutdown for a service process: on SIGINT or SIGTERM, stop once (drain in-flight work,
 * close connections), flush telemetry still in memory, then exit 0; exit 1 if stopping fails. A second
 * signal during draining is ignored so that Ctrl-C twice does not cut a transaction in half.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'draining');
      stop()
        .finally(() => shutdownTelemetry())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'unclean stop');
            process.exit(1);
          },
        );
    });
  }
}
