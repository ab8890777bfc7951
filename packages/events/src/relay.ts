import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@hc/logging';
import pg from 'pg';
import { prefixedSubject } from './nats.ts';
import { OUTBOX_CHANNEL } from './sql.ts';
import { backoffDelay, WorkLoop, type StepResult } from './loop.ts';
import { observeOutboxBacklog, outboxPublished } from './metrics.ts';
import { publishInSpan } from './tracing.ts';

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
  /** Fallback poll when no NOTIFY arrives. Default 100 ms. */
  pollIntervalMs?: number;
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

interface OutboxRow {
  seq: string;
  msg_id: string;
  subject: string;
  payload: string;
  trace_parent: string | null;
}

/**
 * Relays take turns per database through this transaction-scoped advisory lock. SKIP LOCKED alone
 * would let two replicas publish rows 1–100 and 101–200 at the same time, interleaving them on the
 * stream; one publisher at a time keeps each service's events in seq order.
 */
const RELAY_LOCK = 'hc-events-outbox-relay';
const FIRST_BACKOFF_MS = 100;
const TAKE_TURN_SQL = `BEGIN; SELECT pg_try_advisory_xact_lock(hashtext('${RELAY_LOCK}')) AS locked`;

/** UPDATE … published_at and COMMIT as one simple query; refuses anything but bigint text, so nothing else is ever inlined. */
export function markPublishedAndCommitSql(seqs: readonly string[]): string {
  for (const seq of seqs) if (!/^[0-9]{1,19}$/.test(seq)) throw new Error(`outbox relay: ${JSON.stringify(seq)} is not a seq`);
  return `UPDATE outbox_messages SET published_at = now() WHERE seq = ANY('{${seqs.join(',')}}'::bigint[]); COMMIT`;
}
export const RELAY_APPLICATION_NAME = 'hc-outbox-relay';

/** A refusal that waiting cannot mend: wrong password or role (28P01, 28000), no such database (3D000). */
function isMisconfiguration(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '28P01' || code === '28000' || code === '3D000';
}

/**
 * Publishes committed outbox rows to JetStream, in seq order, each with `Nats-Msg-Id` = msg_id.
 *
 * A row is marked published in the same transaction that selected it, after JetStream acked it. A
 * crash between the ack and the commit leaves the row unpublished, so it is published again; the
 * stream's duplicate window drops that copy, because the msg id is the same. Failures (NATS down,
 * stream missing, database restarting) are logged and retried with a bounded back-off; the process
 * never crashes from here.
 *
 * Rejects only when the database cannot be reached at start within `startWaitMs` (a misconfiguration
 * should stop start-up; a connection attempt that fails or times out once is retried).
 */
export async function startOutboxRelay(options: OutboxRelayOptions): Promise<OutboxRelay> {
  const { databaseUrl, logger, subjectPrefix } = options;
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const publishTimeoutMs = options.publishTimeoutMs ?? 5_000;
  const maxBackoffMs = options.maxBackoffMs ?? 2_000;
  const js = jetstream(options.nats);
  // Named so operators can find the relay in pg_stat_activity; bounded connect so a dead host fails fast.
  const connectionSettings = { connectionString: databaseUrl, application_name: RELAY_APPLICATION_NAME, connectionTimeoutMillis: 5_000 };

  // Two connections: one for batches, one so drain() need not queue behind a batch.
  const pool = new pg.Pool({ ...connectionSettings, max: 2 });
  // An idle pooled connection that the server drops emits 'error' on the pool; unhandled, it would crash.
  pool.on('error', (error) => logger.warn({ err: error }, 'outbox relay: idle database connection lost'));

  const loop = new WorkLoop({
    step: relayBatch,
    pollIntervalMs,
    backoff: { firstMs: FIRST_BACKOFF_MS, maxMs: maxBackoffMs },
    onFailure: (failure, attempt, retryInMs) =>
      logger.warn({ err: failure, attempt, retryInMs }, 'outbox relay: publishing failed; rows stay unpublished and will be retried'),
    onRecovered: (failures) => logger.info({ afterAttempts: failures }, 'outbox relay: publishing again'),
  });
  const wake = (): void => loop.wake();

  /**
   * Publishes a batch without waiting a round trip per row: every row goes out at once, in seq order on
   * the one connection, and each row after the first of its stream names the row before it as the
   * stream's last message (Nats-Expected-Last-Msg-Id). So a row that is not stored stops every later
   * row of its stream from being stored too ("wrong last msg ID"): the stream keeps seq order exactly
   * as when each ack was awaited. A row the stream already has (a re-publish after a crash) is answered
   * as a duplicate before that check, so it never blocks. Resolves the rows acked before the first
   * failure, and that failure.
   */
  async function publishInOrder(rows: readonly OutboxRow[]): Promise<{ handled: OutboxRow[]; failure?: unknown }> {
    const lastOfStream = new Map<string, string>();
    const acks = rows.map(async (row) => {
      const subject = prefixedSubject(subjectPrefix, row.subject);
      const stream = row.subject.split('.', 1)[0]!; // a context's stream holds its subjects only
      const previous = lastOfStream.get(stream);
      lastOfStream.set(stream, row.msg_id);
      const ack = await publishInSpan({ subject, msgId: row.msg_id, traceparent: row.trace_parent }, (headers) =>
        js.publish(subject, row.payload, {
          msgID: row.msg_id,
          timeout: publishTimeoutMs,
          headers,
          ...(previous === undefined ? {} : { expect: { lastMsgID: previous } }),
        }),
      );
      if (ack.duplicate)
        logger.info({ msgId: row.msg_id, seq: row.seq }, 'outbox relay: stream already had this message (re-publish after a crash)');
    });
    const settled = await Promise.allSettled(acks);
    const firstFailure = settled.findIndex((result) => result.status === 'rejected');
    if (firstFailure === -1) return { handled: [...rows] };
    return { handled: rows.slice(0, firstFailure), failure: (settled[firstFailure] as PromiseRejectedResult).reason };
  }

  /** One transaction: take the publishing turn, publish up to a batch in seq order, mark what was acked. */
  async function relayBatch(): Promise<StepResult> {
    const client = await pool.connect();
    let broken: Error | undefined;
    // pg emits 'error' on a checked-out client whose connection dies between queries (here: while we
    // wait for JetStream); without a listener that event would crash the process.
    const onConnectionError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onConnectionError);
    try {
      // BEGIN and the turn in one round trip (the simple-query protocol runs both; the lock name is a constant).
      const [, turn] = (await client.query(TAKE_TURN_SQL)) as unknown as [pg.QueryResult, pg.QueryResult<{ locked: boolean }>];
      if (!turn.rows[0]?.locked) {
        await client.query('ROLLBACK');
        return { again: false };
      }
      const { rows } = await client.query<OutboxRow>(
        `SELECT seq, msg_id, subject, payload::text AS payload,
                -- Read through to_jsonb so that an outbox table made before trace_parent existed still relays.
                to_jsonb(outbox_messages) ->> 'trace_parent' AS trace_parent
           FROM outbox_messages
          WHERE published_at IS NULL
          ORDER BY seq
          LIMIT $1
          FOR UPDATE`,
        [batchSize],
      );
      const { handled, failure } = loop.stopped ? { handled: [], failure: undefined } : await publishInOrder(rows);
      const published = handled.map((row) => row.seq);
      // The mark and the commit in one round trip: seqs are the bigints just read, written as literals.
      await client.query(published.length > 0 ? markPublishedAndCommitSql(published) : 'COMMIT');
      if (published.length > 0) {
        outboxPublished.add(published.length);
        logger.debug({ published: published.length }, 'outbox relay: published');
      }
      if (failure !== undefined) return { again: false, failure };
      // A full batch means more rows are probably waiting: go again without sleeping.
      return { again: rows.length === batchSize };
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', onConnectionError);
      // A connection that failed mid-transaction is discarded rather than handed out again.
      client.release(broken);
    }
  }

  // LISTEN needs a connection of its own that stays open; it is re-opened if it drops.
  let listener: pg.Client | undefined;
  let relistenTimer: NodeJS.Timeout | undefined;
  let listenFailures = 0;

  async function listen(): Promise<void> {
    // A server that accepts the connection and then stalls must not hold start-up past its wait.
    const client = new pg.Client({ ...connectionSettings, query_timeout: 10_000 });
    let lost = false;
    let listening = false;
    const onLost = (error?: Error): void => {
      // Before LISTEN answered, a failure is the caller's (listen() rejects); nothing to re-open here.
      if (lost || !listening) return;
      lost = true;
      if (listener === client) listener = undefined;
      client.end().catch(() => undefined);
      if (loop.stopped) return;
      logger.warn({ err: error }, 'outbox relay: LISTEN connection lost; polling until it is back');
      scheduleRelisten();
    };
    client.on('notification', () => wake());
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    if (loop.stopped) {
      // stop() came while this re-LISTEN was connecting; it has already closed what it knew of.
      lost = true;
      await client.end().catch(() => undefined);
      return;
    }
    listening = true;
    listenFailures = 0;
    listener = client;
    // A row committed while we were not listening would otherwise wait for the next poll.
    wake();
  }

  function scheduleRelisten(): void {
    listenFailures += 1;
    const delayMs = backoffDelay({ firstMs: FIRST_BACKOFF_MS, maxMs: maxBackoffMs }, listenFailures);
    relistenTimer = setTimeout(() => {
      relistenTimer = undefined;
      if (loop.stopped) return;
      listen().catch((error: unknown) => {
        if (loop.stopped) return;
        logger.warn({ err: error }, 'outbox relay: could not LISTEN; polling meanwhile');
        scheduleRelisten();
      });
    }, delayMs);
  }

  const startDeadline = Date.now() + (options.startWaitMs ?? 30_000);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await listen();
      break;
    } catch (error) {
      const delayMs = backoffDelay({ firstMs: FIRST_BACKOFF_MS, maxMs: maxBackoffMs }, attempt);
      if (Date.now() + delayMs > startDeadline || isMisconfiguration(error)) {
        await pool.end();
        throw error;
      }
      logger.warn({ err: error, attempt }, 'outbox relay: could not LISTEN at start; trying again');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
  loop.start();
  let stopping: Promise<void> | undefined;
  // Read at each metrics collection only (the partial index on unpublished rows keeps it cheap).
  const stopObserving = observeOutboxBacklog(async () => {
    const { rows } = await pool.query<{ rows: number; age: number }>(
      `SELECT count(*)::int AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
         FROM outbox_messages WHERE published_at IS NULL`,
    );
    return { rows: rows[0]?.rows ?? 0, oldestAgeSeconds: rows[0]?.age ?? 0 };
  });

  return {
    stop() {
      stopping ??= (async () => {
        stopObserving();
        await loop.stop();
        if (relistenTimer) clearTimeout(relistenTimer);
        await listener?.end().catch(() => undefined);
        await pool.end();
      })();
      return stopping;
    },

    afterNextBatch() {
      const next = loop.nextIteration();
      wake();
      return next;
    },

    async drain() {
      for (let round = 0; ; round += 1) {
        if (loop.stopped) throw new Error('outbox relay is stopped');
        const next = loop.nextIteration();
        // Only the first round cuts the poll short: when another replica holds the publishing turn,
        // forcing iterations would just hammer the database until it is done.
        if (round === 0) wake();
        await next;
        if (loop.stopped) throw new Error('outbox relay is stopped');
        const pending = await pool.query<{ pending: boolean }>(
          'SELECT EXISTS (SELECT 1 FROM outbox_messages WHERE published_at IS NULL) AS pending',
        );
        if (!pending.rows[0]?.pending) return;
      }
    },
  };
}
