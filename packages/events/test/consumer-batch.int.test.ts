// Risk covered: group commit (docs/adr/0033) applying a message twice or never — a batch failing
// half-way leaving part of it applied, its messages lost instead of retried one by one, one message
// that cannot be applied yet holding back the rest, or messages not grouped at all.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { consumeDurable, prefixedSubject, startOutboxRelay, type ConsumedMessage, type OutboxRelay } from '../src/index.ts';
import { setUp, until, writeOutbox, type Fixture } from './support.ts';

let f: Fixture;
let relay: OutboxRelay;
beforeAll(async () => {
  f = await setUp('consumer-batch');
  await f.pool.query('CREATE TABLE applied (msg_id text PRIMARY KEY)');
  relay = await startOutboxRelay({ databaseUrl: f.db.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger });
});
afterAll(async () => {
  await relay.stop();
  await f.close();
});

function events(tag: string, n: number): { msgId: string; subject: string; payload: unknown }[] {
  return Array.from({ length: n }, (_, i) => ({ msgId: `${tag}-${i}`, subject: `checkout.${tag}.event`, payload: { n: i } }));
}

/** Applies messages in one transaction: all rows or none (a duplicate key fails the whole group). */
async function applyTogether(messages: ConsumedMessage[], refuse?: (m: ConsumedMessage) => boolean): Promise<void> {
  const client = await f.pool.connect();
  try {
    await client.query('BEGIN');
    for (const m of messages) {
      if (refuse?.(m)) throw new Error(`cannot apply ${m.msgId} yet`);
      await client.query('INSERT INTO applied (msg_id) VALUES ($1) ON CONFLICT DO NOTHING', [m.msgId]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function appliedIds(tag: string): Promise<string[]> {
  const { rows } = await f.pool.query<{ msg_id: string }>('SELECT msg_id FROM applied WHERE msg_id LIKE $1 ORDER BY msg_id', [`${tag}-%`]);
  return rows.map((r) => r.msg_id);
}

describe('consumeDurable with handleBatch (group commit)', () => {
  it('applies messages that were waiting together, each once, and acks them all', async () => {
    // Published before the consumer starts: they are all waiting when it pulls.
    await writeOutbox(f.pool, events('grouped', 60));
    await until(async () => (await f.pool.query('SELECT 1 FROM outbox_messages WHERE published_at IS NULL')).rowCount === 0);
    const batches: number[] = [];
    const singles: string[] = [];
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'grouped',
      filterSubject: prefixedSubject(f.prefix, 'checkout.grouped.>'),
      logger: f.logger,
      handle: async (m) => {
        singles.push(m.msgId);
        await applyTogether([m]);
      },
      handleBatch: async (ms) => {
        batches.push(ms.length);
        await applyTogether(ms);
      },
      maxBatch: 25,
    });
    try {
      await until(async () => (await appliedIds('grouped')).length === 60, 10_000).catch(async (e: unknown) => {
        throw new Error(
          `${String(e)} batches=${JSON.stringify(batches)} singles=${singles.length} applied=${(await appliedIds('grouped')).length}`,
        );
      });
      expect(Math.max(...batches)).toBeGreaterThan(1);
      expect(Math.max(...batches)).toBeLessThanOrEqual(25);
      expect(batches.reduce((a, b) => a + b, 0) + singles.length).toBe(60);
    } finally {
      await consumer.stop();
    }
  });

  it('with onAcked, a group sends one confirmed ack, and when it is confirmed the server holds every ack of the group', async () => {
    await writeOutbox(f.pool, events('confirmed', 60));
    await until(async () => (await f.pool.query('SELECT 1 FROM outbox_messages WHERE published_at IS NULL')).rowCount === 0);
    const jsm = await jetstreamManager(f.nc);
    const handled: number[] = [];
    const checks: Promise<{ pending: number; floor: number; handled: number }>[] = [];
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'confirmed',
      filterSubject: prefixedSubject(f.prefix, 'checkout.confirmed.>'),
      logger: f.logger,
      handle: async (m) => {
        await applyTogether([m]);
        handled.push(1);
      },
      handleBatch: async (ms) => {
        await applyTogether(ms);
        handled.push(ms.length);
      },
      maxBatch: 25,
      // What a read barrier asks when woken: the consumer's ack floor, read from the server at once.
      onAcked: () => {
        const sum = handled.reduce((a, b) => a + b, 0);
        checks.push(
          jsm.consumers
            .info(f.stream, 'confirmed')
            .then((info) => ({ pending: info.num_ack_pending, floor: info.ack_floor.consumer_seq, handled: sum })),
        );
      },
    });
    try {
      await until(async () => (await appliedIds('confirmed')).length === 60, 10_000);
      await until(() => Promise.resolve(handled.reduce((a, b) => a + b, 0) === 60 && checks.length === handled.length), 10_000);
      expect(Math.max(...handled)).toBeGreaterThan(1);
      // One wake-up per group, and each one finds the floor at or past everything handled by then.
      for (const check of await Promise.all(checks)) expect(check.floor).toBeGreaterThanOrEqual(check.handled);
      expect((await Promise.all(checks)).at(-1)).toMatchObject({ pending: 0, floor: 60 });
    } finally {
      await consumer.stop();
    }
  });

  it('a batch failing half-way applies none of it, then each message alone: the good ones at once, the bad one when it can be', async () => {
    await writeOutbox(f.pool, events('halfway', 30));
    await until(async () => (await f.pool.query('SELECT 1 FROM outbox_messages WHERE published_at IS NULL')).rowCount === 0);
    let blocked = true;
    const failedBatches: number[] = [];
    const perMessage = new Map<string, number>();
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'halfway',
      filterSubject: prefixedSubject(f.prefix, 'checkout.halfway.>'),
      logger: f.logger,
      retryDelayMs: 50,
      handle: async (m) => {
        perMessage.set(m.msgId, (perMessage.get(m.msgId) ?? 0) + 1);
        await applyTogether([m], (x) => blocked && x.msgId === 'halfway-7');
      },
      handleBatch: async (ms) => {
        try {
          // halfway-7 cannot be applied yet (like an order event before its session.created).
          await applyTogether(ms, (x) => blocked && x.msgId === 'halfway-7');
        } catch (error) {
          failedBatches.push(ms.length);
          // Nothing of the failed batch is applied: the transaction rolled back.
          const ids = await appliedIds('halfway');
          expect(ids.filter((id) => ms.some((m) => m.msgId === id))).toEqual([]);
          throw error;
        }
      },
    });
    try {
      await until(async () => (await appliedIds('halfway')).length === 29, 10_000);
      expect(failedBatches.length).toBeGreaterThan(0);
      expect(await appliedIds('halfway')).not.toContain('halfway-7');
      blocked = false;
      await until(async () => (await appliedIds('halfway')).length === 30, 10_000);
      // Each message alone at most once, except the blocked one, retried until it could be applied.
      for (const [id, count] of perMessage) if (id !== 'halfway-7') expect(count).toBe(1);
      expect(perMessage.get('halfway-7')).toBeGreaterThan(1);
    } finally {
      await consumer.stop();
    }
  });
});
