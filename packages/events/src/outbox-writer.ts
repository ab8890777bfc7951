/**
 * The one way into outbox_messages (docs/adr/0084): every store that queues an event calls
 * `writeOutbox` inside the transaction of the change it describes, or, where the change is one
 * statement (checkout's hot create, docs/adr/0030), puts `outboxInsertSql` into that statement. Both
 * write the same columns the same way: rows in the order given, a message id already queued skipped
 * (a retried transaction), the `traceparent` of the request (ADR 0019) and a wake-up for the relay
 * delivered at commit. The relay (relay.ts) and the purge (maintenance.ts) are the only other code
 * that touches the table; a test (test/one-outbox-writer.test.ts) keeps stores from writing it any
 * other way.
 */
import { OUTBOX_CHANNEL } from './sql.ts';
import { currentTraceparent } from './tracing.ts';

/** One event to publish: its message id (the Nats-Msg-Id, unique per event), subject and JSON payload. */
export interface OutboxRow {
  readonly msgId: string;
  readonly subject: string;
  readonly payload: unknown;
  /** The W3C traceparent the relay and consumers continue; when left out, the active span's (or none). */
  readonly traceParent?: string | null;
}

/**
 * A transaction to write in: Prisma's interactive transaction client or a node-postgres client.
 * Prisma's `$executeRawUnsafe` and pg's `query` both send the statement with bound parameters.
 */
export type OutboxClient =
  | { $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> }
  | { query(config: { name: string; text: string; values: unknown[] }): Promise<unknown> };

/** Wakes the relay when the statement's transaction commits (dropped on rollback); an SQL expression. */
export const OUTBOX_WAKE_CALL = `pg_notify('${OUTBOX_CHANNEL}', '')`;

/**
 * The INSERT of the outbox rows held by the JSON array parameter `rowsParam` (as `outboxRowsJson`
 * serialises them): in array order, a message id already in the table skipped. `onlyWhere`, an SQL
 * condition on `e.key` (each row's `key`), keeps only some rows, e.g. those whose session the same
 * statement wrote. Usable alone or as a data-modifying WITH clause of a larger statement.
 */
export function outboxInsertSql(rowsParam: string, options: { onlyWhere?: string } = {}): string {
  return `INSERT INTO outbox_messages (msg_id, subject, payload, trace_parent)
      SELECT e.msg_id, e.subject, e.payload, e.trace_parent
        FROM ROWS FROM (json_to_recordset(${rowsParam}::json) AS (key text, msg_id text, subject text, payload jsonb, trace_parent text))
             WITH ORDINALITY AS e(key, msg_id, subject, payload, trace_parent, n)
       ${options.onlyWhere ? `WHERE ${options.onlyWhere}` : ''}
       ORDER BY e.n
      ON CONFLICT (msg_id) DO NOTHING`;
}

/**
 * The JSON text of rows for `outboxInsertSql`'s parameter, each with the `key` its `onlyWhere` may
 * filter on. A row without a traceParent takes the active span's, read here.
 */
export function outboxRowsJson(rows: readonly (OutboxRow & { readonly key?: string })[]): string {
  const traceParent = currentTraceparent();
  return JSON.stringify(
    rows.map((row) => ({
      key: row.key ?? null,
      msg_id: row.msgId,
      subject: row.subject,
      payload: row.payload,
      trace_parent: row.traceParent === undefined ? traceParent : row.traceParent,
    })),
  );
}

const WRITE_OUTBOX_SQL = `WITH o AS (${outboxInsertSql('$1')})
SELECT ${OUTBOX_WAKE_CALL}`;

/** Prepared once per connection under this name when the client is node-postgres. */
const WRITE_OUTBOX_STATEMENT = 'hc-outbox-write';

/**
 * Queues events for the relay inside the caller's transaction: one statement that inserts the rows
 * (a message id already queued is skipped) and wakes the relay at commit.
 */
export async function writeOutbox(client: OutboxClient, rows: readonly OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = [outboxRowsJson(rows)];
  if ('$executeRawUnsafe' in client) await client.$executeRawUnsafe(WRITE_OUTBOX_SQL, ...values);
  else await client.query({ name: WRITE_OUTBOX_STATEMENT, text: WRITE_OUTBOX_SQL, values });
}

/**
 * Rewrites the payloads of the queued (or published, not yet purged) rows whose message id starts with
 * one of `msgIdPrefixes`, e.g. to take an erased buyer's details out of them; one read, one update.
 * Prefixes match literally (`^@`, starts-with: an `_` in an id is no wildcard). Prisma transactions only.
 */
export async function rewriteOutboxPayloads(
  client: {
    $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
    $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  },
  msgIdPrefixes: readonly string[],
  rewrite: (payload: unknown) => unknown,
): Promise<number> {
  if (msgIdPrefixes.length === 0) return 0;
  const rows = await client.$queryRawUnsafe<{ seq: string; payload: unknown }[]>(
    `SELECT seq::text AS seq, payload FROM outbox_messages WHERE msg_id ^@ ANY($1::text[]) ORDER BY seq`,
    [...msgIdPrefixes],
  );
  if (rows.length === 0) return 0;
  const rewritten = JSON.stringify(rows.map((row) => ({ seq: row.seq, payload: rewrite(row.payload) })));
  return client.$executeRawUnsafe(
    `UPDATE outbox_messages o SET payload = e.payload
       FROM json_to_recordset($1::json) AS e(seq bigint, payload jsonb) WHERE o.seq = e.seq`,
    rewritten,
  );
}
