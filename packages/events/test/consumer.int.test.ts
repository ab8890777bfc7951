// Risk covered: consumers applying an event twice or never — a handler error losing the message
// instead of redelivering it, a redelivery (ack lost after commit) applying the state change again,
// a stopped consumer losing its position or leaving handles open, and re-declaring a durable
// consumer at start-up failing or resetting it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  consumeDurable,
  markProcessed,
  prefixedSubject,
  purgeProcessed,
  startOutboxRelay,
  type ConsumedMessage,
  type OutboxRelay,
} from '../src/index.ts';
import { setUp, until, writeOutbox, type Fixture } from './support.ts';

let f: Fixture;
let relay: OutboxRelay;
beforeAll(async () => {
  f = await setUp('consumer');
  await f.pool.query('CREATE TABLE balances (id text PRIMARY KEY, total int NOT NULL)');
  relay = await startOutboxRelay({ databaseUrl: f.db.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger });
});
afterAll(async () => {
  await relay.stop();
  await f.close();
});

function events(tag: string, n: number): { msgId: string; subject: string; payload: unknown }[] {
  return Array.from({ length: n }, (_, i) => ({ msgId: `${tag}-${i}`, subject: `checkout.${tag}.event`, payload: { amount: i + 1 } }));
}

function filter(tag: string): string {
  return prefixedSubject(f.prefix, `checkout.${tag}.>`);
}

async function pending(durable: string): Promise<{ ackPending: number; pending: number }> {
  const info = await (await jetstreamManager(f.nc)).consumers.info(f.stream, durable);
  return { ackPending: info.num_ack_pending, pending: info.num_pending };
}

describe('consumeDurable', () => {
  it('redelivers a message after its handler throws, and acks it once it succeeds', async () => {
    const deliveries: ConsumedMessage[] = [];
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'flaky',
      filterSubject: filter('flaky'),
      logger: f.logger,
      retryDelayMs: 20,
      handle: async (m) => {
        deliveries.push(m);
        if (m.msgId === 'flaky-1' && deliveries.filter((d) => d.msgId === 'flaky-1').length < 3) throw new Error('database busy');
      },
    });
    try {
      await writeOutbox(f.pool, events('flaky', 3));
      await until(() => deliveries.filter((d) => d.msgId === 'flaky-1').length === 3);
      await until(async () => (await pending('flaky')).ackPending === 0);
    } finally {
      await consumer.stop();
    }
    const flaky = deliveries.filter((d) => d.msgId === 'flaky-1');
    expect(flaky.map((d) => d.redelivered)).toEqual([false, true, true]);
    expect(flaky[0]).toEqual({ msgId: 'flaky-1', subject: `${f.prefix}.checkout.flaky.event`, data: { amount: 2 }, redelivered: false });
    // A failing message does not hold up the others.
    expect(deliveries.filter((d) => d.msgId !== 'flaky-1').map((d) => d.msgId)).toEqual(['flaky-0', 'flaky-2']);
    expect(f.logs.some((l) => l['msgId'] === 'flaky-1' && String(l['msg']).includes('handler failed'))).toBe(true);
    expect(await pending('flaky')).toEqual({ ackPending: 0, pending: 0 });
  });

  it('applies each message once with markProcessed, also when redelivered after the commit', async () => {
    let lostAck = false;
    let rolledBack = false;
    const deliveries: string[] = [];
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'ledger',
      filterSubject: filter('ledger'),
      logger: f.logger,
      retryDelayMs: 20,
      handle: async (m) => {
        deliveries.push(m.msgId);
        const client = await f.pool.connect();
        try {
          await client.query('BEGIN');
          if (await markProcessed(client, 'ledger', m.msgId)) {
            const { amount } = m.data as { amount: number };
            await client.query("INSERT INTO balances VALUES ('acct', $1) ON CONFLICT (id) DO UPDATE SET total = balances.total + $1", [
              amount,
            ]);
          }
          // A failure before commit: nothing of it stays, the redelivery applies it.
          if (m.msgId === 'ledger-0' && !rolledBack) {
            rolledBack = true;
            throw new Error('crashed before commit');
          }
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        } finally {
          client.release();
        }
        // A failure after commit (the ack is lost): the redelivery must be a no-op.
        if (m.msgId === 'ledger-1' && !lostAck) {
          lostAck = true;
          throw new Error('crashed after commit');
        }
      },
    });
    try {
      await writeOutbox(f.pool, events('ledger', 4));
      await until(async () => deliveries.length === 6 && (await pending('ledger')).ackPending === 0);
    } finally {
      await consumer.stop();
    }
    expect(deliveries.filter((id) => id === 'ledger-0' || id === 'ledger-1')).toHaveLength(4);
    const balance = await f.pool.query<{ total: number }>("SELECT total FROM balances WHERE id = 'acct'");
    expect(balance.rows[0]?.total).toBe(1 + 2 + 3 + 4);
    const processed = await f.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM processed_messages WHERE consumer = 'ledger'");
    expect(processed.rows[0]?.n).toBe(4);
    expect(await purgeProcessed(f.pool, 60_000)).toBe(0);
  });

  it('stops cleanly and resumes from its durable position; re-declaring it at start-up is harmless', async () => {
    const first: string[] = [];
    const options = {
      nats: f.nc,
      stream: f.stream,
      durable: 'resume',
      filterSubject: filter('resume'),
      logger: f.logger,
    };
    const consumer = await consumeDurable({ ...options, handle: async (m) => void first.push(m.msgId) });
    await writeOutbox(f.pool, events('resume', 3));
    await until(() => first.length === 3);
    await consumer.stop();
    await consumer.stop();

    await writeOutbox(f.pool, events('resume', 5).slice(3));
    await relay.drain();
    const second: string[] = [];
    const again = await consumeDurable({ ...options, ackWaitMs: 10_000, handle: async (m) => void second.push(m.msgId) });
    await until(() => second.length === 2);
    await again.stop();
    expect(first).toEqual(['resume-0', 'resume-1', 'resume-2']);
    expect(second).toEqual(['resume-3', 'resume-4']);
    const info = await (await jetstreamManager(f.nc)).consumers.info(f.stream, 'resume');
    expect(info.config.ack_wait).toBe(10_000 * 1_000_000);
  });
});
