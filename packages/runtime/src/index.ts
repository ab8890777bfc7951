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

/** Crash points armed for this process: HC_CRASH_POINTS, comma-separated (read once at start). */
const armedCrashPoints = new Set(
  (process.env['HC_CRASH_POINTS'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
);

/**
 * Fault injection for crash tests: when HC_CRASH_POINTS names this point, the process kills itself
 * with SIGKILL right here — no cleanup, no flush, no rollback but PostgreSQL's own, like a power cut.
 * Tests use it to stop a process at an exact line (e.g. between recording a notice and publishing its
 * verdict). Nothing sets HC_CRASH_POINTS outside tests (config, the start command and the Helm chart
 * never do); unarmed, a crash point is one Set lookup.
 */
export function crashPoint(name: string): void {
  if (armedCrashPoints.has(name)) process.kill(process.pid, 'SIGKILL');
}
