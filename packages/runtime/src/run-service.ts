import { waitForDatabase } from '@hc/db';
import { createLogger, type Logger } from '@hc/logging';
import { stopOnSignals } from './signals.ts';

export interface ServiceMain<S extends { stop(): Promise<void> }> {
  readonly name: string;
  readonly logLevel: string;
  /** The service's own database: waited for (up to 2 min) before anything starts. */
  readonly databaseUrl?: string;
  readonly start: (logger: Logger) => Promise<S>;
  /** What the "listening" line says of the started service (its addresses). */
  readonly listening: (service: S) => Record<string, unknown>;
  /** The "listening" line's message (tests wait for it). Default `<name> gRPC service listening`. */
  readonly listeningMessage?: string;
}

/**
 * A service's main.ts in one call: the logger, the wait for its database, the start, one "listening"
 * line, and the graceful stop on SIGINT/SIGTERM (telemetry is started by `--import @hc/telemetry/register`
 * before main.ts runs, and flushed by stopOnSignals).
 */
export async function runService<S extends { stop(): Promise<void> }>(main: ServiceMain<S>): Promise<S> {
  const logger = createLogger(main.name, { level: main.logLevel });
  if (main.databaseUrl) {
    // Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
    await waitForDatabase(main.databaseUrl, {
      timeoutMs: 120_000,
      onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
    });
  }
  const service = await main.start(logger);
  logger.info(main.listening(service), main.listeningMessage ?? `${main.name} gRPC service listening`);
  stopOnSignals(logger, () => service.stop());
  return service;
}
