import { databaseUnavailableError, waitForDatabase } from '@hc/db';
import { jetStreamSettling } from '@hc/events';
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
  /** How long a start that fails on a database or JetStream briefly away is tried again. Default 2 min. */
  readonly startWaitMs?: number;
}

/** The first wait before a start is tried again, doubled each time up to the last. */
const RESTART_DELAYS_MS = { first: 500, max: 5_000 };

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
  const service = await startWhileAway(main, logger);
  logger.info(main.listening(service), main.listeningMessage ?? `${main.name} gRPC service listening`);
  stopOnSignals(logger, () => service.stop());
  return service;
}

/**
 * The start, tried again while it fails because the database or JetStream is briefly away: a copy
 * restarted by its supervisor as PostgreSQL fails over met the old primary's end mid-start and exited
 * (found by the whole-topology fault profile, docs/adr/0099). A failed start has already stopped what
 * it started (the skeleton's rule, startService), so starting again is safe. Any other failure, or one
 * past `startWaitMs`, is thrown as before: a wrong setting must still stop the process loudly.
 */
export async function startWhileAway<S>(
  main: { readonly name: string; readonly startWaitMs?: number; readonly start: (logger: Logger) => Promise<S> },
  logger: Logger,
): Promise<S> {
  const deadline = Date.now() + (main.startWaitMs ?? 120_000);
  for (let delay = RESTART_DELAYS_MS.first; ; delay = Math.min(delay * 2, RESTART_DELAYS_MS.max)) {
    try {
      return await main.start(logger);
    } catch (error) {
      const away = databaseUnavailableError(error) !== undefined || jetStreamSettling(error);
      if (!away || Date.now() + delay >= deadline) throw error;
      logger.warn({ err: error, retryInMs: delay }, `${main.name}: start failed while its database or JetStream was away; starting again`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
