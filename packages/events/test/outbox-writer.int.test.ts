// Risk covered: the one outbox writer every store uses (docs/adr/0084) losing what each store's own
// insert used to do: rows in the caller's order and transaction (gone on rollback), a retried message
// id skipped rather than failing the transaction, the stored traceparent, the relay's wake-up at commit
// (none on rollback), and, for checkout's one-statement create, only the rows the statement keeps.
// Also the erasure's rewrite of payloads by message-id prefix, where an `_` in an id is no wildcard.
// Real PostgreSQL; the Prisma-shaped client is node-postgres behind Prisma's two method names (the
// services' suites run the real Prisma path).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, openTestPool, type TestDatabase } from '@hc/test-kit';
import type pg from 'pg';
import { OUTBOX_CHANNEL, OUTBOX_WAKE_CALL, outboxInsertSql, outboxRowsJson, rewriteOutboxPayloads, writeOutbox } from '../src/index.ts';
import { MIGRATIONS } from './support.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase('events', MIGRATIONS);
  pool = openTestPool(db.url, 4);
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>, commit = true): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    return result;
  } finally {
    client.release();
  }
}

/** Prisma's interactive-transaction methods the writer calls, over a node-postgres client. */
function prismaShaped(client: pg.PoolClient) {
  return {
    $executeRawUnsafe: async (query: string, ...values: unknown[]) => (await client.query(query, values)).rowCount ?? 0,
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(query, values)).rows as T,
  };
}

async function rows(prefix: string) {
  const { rows } = await pool.query<{ msg_id: string; subject: string; payload: unknown; trace_parent: string | null }>(
    'SELECT msg_id, subject, payload, trace_parent FROM outbox_messages WHERE msg_id LIKE $1 ORDER BY seq',
    [`${prefix}%`],
  );
  return rows;
}

describe('writeOutbox', () => {
  it('writes the rows in order inside the caller transaction, skipping a message id already queued', async () => {
    await inTransaction((client) => writeOutbox(client, [{ msgId: 'a.1', subject: 'checkout.x', payload: { n: 1 } }]));
    await inTransaction((client) =>
      writeOutbox(prismaShaped(client), [
        { msgId: 'a.2', subject: 'checkout.y', payload: { n: 2 }, traceParent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
        { msgId: 'a.1', subject: 'checkout.x', payload: { n: 99 } },
        { msgId: 'a.3', subject: 'checkout.z', payload: ['list'], traceParent: null },
      ]),
    );
    await inTransaction((client) => writeOutbox(client, [{ msgId: 'a.4', subject: 'checkout.w', payload: {} }]), false);
    expect(await rows('a.')).toEqual([
      { msg_id: 'a.1', subject: 'checkout.x', payload: { n: 1 }, trace_parent: null },
      { msg_id: 'a.2', subject: 'checkout.y', payload: { n: 2 }, trace_parent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      { msg_id: 'a.3', subject: 'checkout.z', payload: ['list'], trace_parent: null },
    ]);
  });

  it('wakes the relay once the transaction commits, and not for one rolled back', async () => {
    const listener = await pool.connect();
    const heard: string[] = [];
    try {
      listener.on('notification', (message) => heard.push(message.channel));
      await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
      await inTransaction((client) => writeOutbox(client, [{ msgId: 'b.1', subject: 'checkout.x', payload: {} }]), false);
      await inTransaction((client) => writeOutbox(prismaShaped(client), [{ msgId: 'b.2', subject: 'checkout.x', payload: {} }]));
      // A notification reaches a listener between its commands: after this one, every sent one is in.
      await listener.query('SELECT 1');
      expect(heard).toEqual([OUTBOX_CHANNEL]);
    } finally {
      await listener.query(`UNLISTEN ${OUTBOX_CHANNEL}`);
      listener.release();
    }
  });
});

describe('outboxInsertSql in a larger statement', () => {
  it('writes only the rows whose key the statement keeps', async () => {
    const { rows: kept } = await pool.query<{ key: string }>(
      `WITH k AS (SELECT unnest($2::text[]) AS key),
            o AS (${outboxInsertSql('$1', { onlyWhere: 'e.key IN (SELECT key FROM k)' })})
       SELECT key, ${OUTBOX_WAKE_CALL} FROM k`,
      [
        outboxRowsJson([
          { key: 's1', msgId: 'c.1', subject: 'checkout.x', payload: { s: 1 } },
          { key: 's2', msgId: 'c.2', subject: 'checkout.x', payload: { s: 2 } },
          { key: 's3', msgId: 'c.3', subject: 'checkout.x', payload: { s: 3 } },
        ]),
        ['s3', 's1'],
      ],
    );
    expect(kept).toHaveLength(2);
    expect((await rows('c.')).map((row) => row.msg_id)).toEqual(['c.1', 'c.3']);
  });
});

describe('rewriteOutboxPayloads', () => {
  it('rewrites the rows whose message id starts with a prefix, taken literally', async () => {
    await inTransaction((client) =>
      writeOutbox(client, [
        { msgId: 'pay_1.paid', subject: 'checkout.x', payload: { email: 'a@example.com' } },
        { msgId: 'pay_1.canceled', subject: 'checkout.x', payload: { email: 'a@example.com' } },
        { msgId: 'payX1.paid', subject: 'checkout.x', payload: { email: 'b@example.com' } },
      ]),
    );
    const changed = await inTransaction((client) =>
      rewriteOutboxPayloads(prismaShaped(client), ['pay_1.'], (payload) => ({ ...(payload as object), email: null })),
    );
    expect(changed).toBe(2);
    expect((await rows('pay')).map((row) => [row.msg_id, row.payload])).toEqual([
      ['pay_1.paid', { email: null }],
      ['pay_1.canceled', { email: null }],
      ['payX1.paid', { email: 'b@example.com' }],
    ]);
  });
});
