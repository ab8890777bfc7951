import pg from 'pg';
import type { EventRetention, PurgeJob } from './retention.ts';

/** Anything that runs a parameterized statement: pg.Client, pg.PoolClient, pg.Pool, or an adapter. */
export interface SqlClient {
  query(sql: string, params: unknown[]): Promise<{ rowCount: number | null }>;
}

export const MARK_PROCESSED_SQL = 'INSERT INTO processed_messages (consumer, msg_id) VALUES ($1, $2) ON CONFLICT DO NOTHING';

/**
 * MARK_PROCESSED_SQL for a group of messages in one statement ($1 consumer, $2 text[] of message
 * ids): returns the ids recorded now, i.e. the ones never applied before. A message id named twice
 * in the group is recorded (and returned) once.
 */
export const MARK_MANY_PROCESSED_SQL = `INSERT INTO processed_messages (consumer, msg_id)
  SELECT $1, m FROM unnest($2::text[]) AS m ON CONFLICT DO NOTHING RETURNING msg_id AS "msgId"`;

/**
 * Records that `consumer` applied `msgId`; true the first time, false on any redelivery. Call it
 * inside the transaction that applies the message's state change and skip the change when it returns
 * false: both commit together or not at all, so a message is applied exactly once even though
 * JetStream delivers it at least once. (A concurrent redelivery waits on the primary key until the
 * first transaction ends, then sees it.)
 */
export async function markProcessed(client: SqlClient, consumer: string, msgId: string): Promise<boolean> {
  const result = await client.query(MARK_PROCESSED_SQL, [consumer, msgId]);
  return result.rowCount === 1;
}

// Deleting in slices keeps each statement's locks and WAL burst small on a large table.
const PURGE_SLICE = 5_000;

/** Deletes outbox rows published more than `olderThanMs` ago; returns how many. Run it periodically. */
export function purgePublished(database: SqlClient | string, olderThanMs: number): Promise<number> {
  return purgeSlices(
    database,
    `DELETE FROM outbox_messages WHERE seq IN (
       SELECT seq FROM outbox_messages
        WHERE published_at IS NOT NULL AND published_at < now() - $1 * interval '1 millisecond'
        LIMIT ${PURGE_SLICE})`,
    olderThanMs,
  );
}

/**
 * Deletes processed-message records older than `olderThanMs`. Keep them far longer than any message
 * can still be redelivered (the stream's retention), or a late redelivery would be applied again.
 */
export function purgeProcessed(database: SqlClient | string, olderThanMs: number): Promise<number> {
  return purgeSlices(
    database,
    `DELETE FROM processed_messages WHERE (consumer, msg_id) IN (
       SELECT consumer, msg_id FROM processed_messages
        WHERE processed_at < now() - $1 * interval '1 millisecond'
        LIMIT ${PURGE_SLICE})`,
    olderThanMs,
  );
}

async function purgeSlices(database: SqlClient | string, sql: string, olderThanMs: number): Promise<number> {
  if (typeof database !== 'string') return deleteInSlices(database, sql, olderThanMs);
  const pool = new pg.Pool({ connectionString: database, max: 1 });
  try {
    return await deleteInSlices(pool, sql, olderThanMs);
  } finally {
    await pool.end();
  }
}

async function deleteInSlices(client: SqlClient, sql: string, olderThanMs: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = (await client.query(sql, [olderThanMs])).rowCount ?? 0;
    total += deleted;
    if (deleted < PURGE_SLICE) return total;
  }
}

/**
 * The scheduled purges of a service's event tables (startPurgeSchedule): published outbox rows after
 * EVENTS_OUTBOX_RETENTION_MS (an unpublished row is never touched, however old), processed records
 * after EVENTS_PROCESSED_RETENTION_MS (longer than the stream keeps a message: checkEventRetention).
 */
export function eventTablePurges(database: SqlClient | string, retention: EventRetention): PurgeJob[] {
  return [
    { name: 'outbox_messages', run: () => purgePublished(database, retention.EVENTS_OUTBOX_RETENTION_MS) },
    processedMessagesPurge(database, retention),
  ];
}

/** The processed-records purge alone, for a service that consumes but has no outbox. */
export function processedMessagesPurge(database: SqlClient | string, retention: EventRetention): PurgeJob {
  return { name: 'processed_messages', run: () => purgeProcessed(database, retention.EVENTS_PROCESSED_RETENTION_MS) };
}
