import type { Logger } from '@hc/logging';
import type pg from 'pg';
import type { StepResult } from '@hc/batching';
import { outboxPublished } from './metrics.ts';
import type { OutboxRow, PublishOutcome } from './relay-publisher.ts';

/**
 * Relays take turns per database through this transaction-scoped advisory lock. SKIP LOCKED alone
 * would let two replicas publish rows 1–100 and 101–200 at the same time, interleaving them on the
 * stream; one publisher at a time keeps each service's events in seq order.
 */
const RELAY_LOCK = 'hc-events-outbox-relay';
// BEGIN and the turn in one round trip (the simple-query protocol runs both; the lock name is a constant).
const TAKE_TURN_SQL = `BEGIN; SELECT pg_try_advisory_xact_lock(hashtext('${RELAY_LOCK}')) AS locked`;
const SELECT_UNPUBLISHED_SQL = `SELECT seq, msg_id, subject, payload::text AS payload,
        -- Read through to_jsonb so that an outbox table made before trace_parent existed still relays.
        to_jsonb(outbox_messages) ->> 'trace_parent' AS trace_parent
   FROM outbox_messages
  WHERE published_at IS NULL
  ORDER BY seq
  LIMIT $1
  FOR UPDATE`;

/** UPDATE … published_at and COMMIT as one simple query; refuses anything but bigint text, so nothing else is ever inlined. */
export function markPublishedAndCommitSql(seqs: readonly string[]): string {
  for (const seq of seqs) if (!/^[0-9]{1,19}$/.test(seq)) throw new Error(`outbox relay: ${JSON.stringify(seq)} is not a seq`);
  return `UPDATE outbox_messages SET published_at = now() WHERE seq = ANY('{${seqs.join(',')}}'::bigint[]); COMMIT`;
}

export interface LeasedBatchSettings {
  pool: pg.Pool;
  batchSize: number;
  publish: (rows: readonly OutboxRow[]) => Promise<PublishOutcome>;
  /** True once the relay is stopping: the rows are then left for the next relay, unpublished. */
  isStopped: () => boolean;
  logger: Logger;
}

/**
 * The relay's step: one transaction that takes the publishing turn, publishes up to a batch in seq
 * order and marks what JetStream acked. A row is marked published in the transaction that selected
 * it, after its ack: a crash between the two leaves it unpublished, so it is published again (and
 * dropped by the stream as a duplicate).
 */
export function leasedBatchStep(settings: LeasedBatchSettings): () => Promise<StepResult> {
  return () => withRelayConnection(settings.pool, (client) => publishLeasedBatch(settings, client));
}

async function publishLeasedBatch(settings: LeasedBatchSettings, client: pg.PoolClient): Promise<StepResult> {
  const [, turn] = (await client.query(TAKE_TURN_SQL)) as unknown as [pg.QueryResult, pg.QueryResult<{ locked: boolean }>];
  if (!turn.rows[0]?.locked) {
    await client.query('ROLLBACK');
    return { again: false };
  }
  const { rows } = await client.query<OutboxRow>(SELECT_UNPUBLISHED_SQL, [settings.batchSize]);
  const { handled, failure } = settings.isStopped() ? { handled: [], failure: undefined } : await settings.publish(rows);
  const published = handled.map((row) => row.seq);
  // The mark and the commit in one round trip: seqs are the bigints just read, written as literals.
  await client.query(published.length > 0 ? markPublishedAndCommitSql(published) : 'COMMIT');
  if (published.length > 0) {
    outboxPublished.add(published.length);
    settings.logger.debug({ published: published.length }, 'outbox relay: published');
  }
  if (failure !== undefined) return { again: false, failure };
  // A full batch means more rows are probably waiting: go again without sleeping.
  return { again: rows.length === settings.batchSize };
}

/** Runs `work` on a pooled connection; rolls back on failure and discards a connection that broke. */
async function withRelayConnection(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<StepResult>): Promise<StepResult> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // pg emits 'error' on a checked-out client whose connection dies between queries (here: while we
  // wait for JetStream); without a listener that event would crash the process.
  const onConnectionError = (error: Error): void => {
    broken = error;
  };
  client.on('error', onConnectionError);
  try {
    return await work(client);
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
