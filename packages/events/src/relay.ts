import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@hc/logging';
import pg from 'pg';
import { WorkLoop, type BackoffSettings } from '@hc/batching';
import { observeOutboxBacklog } from './metrics.ts';
import { leasedBatchStep } from './relay-lease.ts';
import { listenAtStart, OutboxListener } from './relay-listener.ts';
import { rowPublisher } from './relay-publisher.ts';

export { markPublishedAndCommitSql } from './relay-lease.ts';

export interface OutboxRelayOptions {
  /** The service's own database (the one holding outbox_messages). */
  databaseUrl: string;
  /** A connection made with connectNats; the relay uses it but never closes it. */
  nats: NatsConnection;
  /** Prepended to each row's relative subject ("" in production). */
  subjectPrefix: string;
  logger: Logger;
  /** Rows per transaction. Default 100. */
  batchSize?: number;
  /**
   * The safety poll while the LISTEN connection is up. Default 1 s: every writer NOTIFYs in its
   * transaction, so this poll only finds rows whose wake-up went to another replica that held the
   * publishing turn and died in it.
   */
  pollIntervalMs?: number;
  /** The poll while the LISTEN connection is down (nothing wakes the relay then). Default 100 ms, or pollIntervalMs if shorter. */
  unlistenedPollIntervalMs?: number;
  /** How long to wait for JetStream's ack of one message. Default 5 s. */
  publishTimeoutMs?: number;
  /** Ceiling of the retry back-off after a failure (NATS or database down). Default 2 s. */
  maxBackoffMs?: number;
  /**
   * How long start-up keeps trying to open the LISTEN connection before it gives up. Default 30 s:
   * a database slow to accept one connection (a loaded host) must not fail the service's start,
   * while a wrong address or password still does.
   */
  startWaitMs?: number;
}

export interface OutboxRelay {
  /** Stops after the batch in flight (its published rows are committed); closes the relay's database connections. */
  stop(): Promise<void>;
  /** Resolves once no unpublished row is left in the database (whichever relay published them). */
  drain(): Promise<void>;
  /** Resolves after this relay's next publishing attempt (it is woken for it). */
  afterNextBatch(): Promise<void>;
}

export const RELAY_APPLICATION_NAME = 'hc-outbox-relay';
const FIRST_BACKOFF_MS = 100;

/**
 * Publishes committed outbox rows to JetStream, in seq order, each with `Nats-Msg-Id` = msg_id.
 *
 * The parts: a leased batch (relay-lease.ts: the publishing turn, the rows, the mark), the publisher
 * (relay-publisher.ts: in order, deduplicated by msg id), the LISTEN/NOTIFY wake-up with its start-up
 * retry (relay-listener.ts), and the loop (@hc/batching's WorkLoop) that runs batches with a bounded back-off. A crash
 * between JetStream's ack and the commit leaves a row unpublished, so it is published again; the
 * stream's duplicate window drops that copy. Failures (NATS down, stream missing, database
 * restarting) are logged and retried; the process never crashes from here.
 *
 * Rejects only when the database cannot be reached at start within `startWaitMs` (a misconfiguration
 * should stop start-up; a connection attempt that fails or times out once is retried).
 */
export async function startOutboxRelay(options: OutboxRelayOptions): Promise<OutboxRelay> {
  const { logger } = options;
  const backoff: BackoffSettings = { firstMs: FIRST_BACKOFF_MS, maxMs: options.maxBackoffMs ?? 2_000 };
  // Named so operators can find the relay in pg_stat_activity; bounded connect so a dead host fails fast.
  const connection = { connectionString: options.databaseUrl, application_name: RELAY_APPLICATION_NAME, connectionTimeoutMillis: 5_000 };
  // Two connections: one for batches, one so drain() need not queue behind a batch.
  const pool = new pg.Pool({ ...connection, max: 2 });
  // An idle pooled connection that the server drops emits 'error' on the pool; unhandled, it would crash.
  pool.on('error', (error) => logger.warn({ err: error }, 'outbox relay: idle database connection lost'));
  const publish = rowPublisher({
    js: jetstream(options.nats),
    subjectPrefix: options.subjectPrefix,
    publishTimeoutMs: options.publishTimeoutMs ?? 5_000,
    logger,
  });
  const listeningPollMs = options.pollIntervalMs ?? 1_000;
  const unlistenedPollMs = options.unlistenedPollIntervalMs ?? Math.min(listeningPollMs, 100);
  const loop: WorkLoop = new WorkLoop({
    step: leasedBatchStep({ pool, batchSize: options.batchSize ?? 100, publish, isStopped: () => loop.stopped, logger }),
    pollIntervalMs: () => (listener.listening ? listeningPollMs : unlistenedPollMs),
    backoff,
    onFailure: (failure, attempt, retryInMs) =>
      logger.warn({ err: failure, attempt, retryInMs }, 'outbox relay: publishing failed; rows stay unpublished and will be retried'),
    onRecovered: (failures) => logger.info({ afterAttempts: failures }, 'outbox relay: publishing again'),
  });
  const listener = new OutboxListener({ connection, wake: () => loop.wake(), isStopped: () => loop.stopped, backoff, logger });
  try {
    await listenAtStart(listener, { startWaitMs: options.startWaitMs ?? 30_000, backoff, logger });
  } catch (error) {
    await pool.end();
    throw error;
  }
  loop.start();
  return relayControls(loop, pool, listener, observeBacklog(pool));
}

/** The outbox backlog, read at each metrics collection only (the partial index on unpublished rows keeps it cheap). */
function observeBacklog(pool: pg.Pool): () => void {
  return observeOutboxBacklog(async () => {
    const { rows } = await pool.query<{ rows: number; age: number }>(
      `SELECT count(*)::int AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
         FROM outbox_messages WHERE published_at IS NULL`,
    );
    return { rows: rows[0]?.rows ?? 0, oldestAgeSeconds: rows[0]?.age ?? 0 };
  });
}

/** stop, drain and afterNextBatch over the running relay's parts. */
function relayControls(loop: WorkLoop, pool: pg.Pool, listener: OutboxListener, stopObserving: () => void): OutboxRelay {
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        stopObserving();
        await loop.stop();
        await listener.close();
        await pool.end();
      })();
      return stopping;
    },
    afterNextBatch() {
      const next = loop.nextIteration();
      loop.wake();
      return next;
    },
    drain: () => drainOutbox(loop, pool),
  };
}

async function drainOutbox(loop: WorkLoop, pool: pg.Pool): Promise<void> {
  for (let round = 0; ; round += 1) {
    if (loop.stopped) throw new Error('outbox relay is stopped');
    const next = loop.nextIteration();
    // Only the first round cuts the poll short: when another replica holds the publishing turn,
    // forcing iterations would just hammer the database until it is done.
    if (round === 0) loop.wake();
    await next;
    if (loop.stopped) throw new Error('outbox relay is stopped');
    const pending = await pool.query<{ pending: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM outbox_messages WHERE published_at IS NULL) AS pending',
    );
    if (!pending.rows[0]?.pending) return;
  }
}
