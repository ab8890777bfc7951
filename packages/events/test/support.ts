// Shared fixtures for the integration tests: a migrated database, a NATS connection, a stream under
// the test file's own prefix, and a logger whose lines the test can read.
import { jetstream, jetstreamManager, type StoredMsg } from '@nats-io/jetstream';
import { createLogger, type Logger } from '@hc/logging';
import { createTestDatabase, testNatsPrefix, testNatsUrl, type TestDatabase, openTestPool } from '@hc/test-kit';
import { join } from 'node:path';
import type pg from 'pg';
import { connectNats, contextStream, DEFAULT_EVENT_RETENTION, ensureStream, streamName, type NatsConnection } from '../src/index.ts';

export const MIGRATIONS = join(import.meta.dirname, 'fixtures/migrations');

export interface Fixture {
  db: TestDatabase;
  pool: pg.Pool;
  nc: NatsConnection;
  prefix: string;
  stream: string;
  logger: Logger;
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

/** One database, one prefix and one "checkout" stream for a test file. */
export async function setUp(label: string): Promise<Fixture> {
  const db = await createTestDatabase('events', MIGRATIONS);
  const pool = openTestPool(db.url, 4);
  const nc = await connectNats(testNatsUrl(), `events-test-${label}`);
  const prefix = testNatsPrefix(label);
  const stream = streamName(prefix, 'checkout');
  await ensureStream(nc, contextStream(prefix, 'checkout', DEFAULT_EVENT_RETENTION));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger(`events-test-${label}`, {
    level: 'debug',
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return {
    db,
    pool,
    nc,
    prefix,
    stream,
    logger,
    logs,
    async close() {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(stream).catch(() => false);
      await nc.close();
      await pool.end();
      await db.drop();
    },
  };
}

/** Inserts outbox rows the way a service does (relative subjects), and NOTIFYs in the same transaction. */
export async function writeOutbox(
  pool: pg.Pool,
  rows: { msgId: string; subject: string; payload: unknown }[],
  notify = true,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const row of rows) {
      await client.query('INSERT INTO outbox_messages (msg_id, subject, payload) VALUES ($1, $2, $3)', [
        row.msgId,
        row.subject,
        JSON.stringify(row.payload),
      ]);
    }
    if (notify) await client.query('NOTIFY outbox');
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

export async function unpublishedCount(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
  return result.rows[0]?.n ?? -1;
}

/** Every message the stream holds, in stream order. */
export async function streamMessages(nc: NatsConnection, stream: string): Promise<StoredMsg[]> {
  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info(stream);
  const out: StoredMsg[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(stream, { seq });
    if (m) out.push(m);
  }
  return out;
}

export function msgIdOf(m: StoredMsg): string | undefined {
  return m.header.get('Nats-Msg-Id');
}

export { jetstream };

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
