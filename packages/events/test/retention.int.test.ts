// Risk covered: retention deleting what is still needed — a purge of the outbox removing a row the
// relay has not published yet, a purge of processed records racing a consumer, a stream purge for an
// erasure removing a message a durable consumer has not processed (a webhook or an order lost) — and
// retention not removing what it should.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AckPolicy, jetstreamManager } from '@nats-io/jetstream';
import {
  consumeDurable,
  markProcessed,
  prefixedSubject,
  purgeConsumedMessages,
  purgeProcessed,
  purgePublished,
  startOutboxRelay,
  startPurgeSchedule,
} from '../src/index.ts';
import { jetstream, msgIdOf, setUp, streamMessages, unpublishedCount, until, writeOutbox, type Fixture } from './support.ts';
import { paymentMessagesSubjects } from '../src/contracts/index.ts';

let f: Fixture;
beforeAll(async () => {
  f = await setUp('retention');
});
afterAll(async () => {
  await f.close();
});

const HOUR = 3_600_000;

describe('scheduled purges while the relay and a consumer run', () => {
  it('publishes and applies every row exactly once although published rows are purged the moment they go out', async () => {
    const total = 300;
    const applied: string[] = [];
    const relay = await startOutboxRelay({ databaseUrl: f.db.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger, batchSize: 7 });
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'retention-apply',
      filterSubject: prefixedSubject(f.prefix, 'checkout.busy.>'),
      logger: f.logger,
      handle: async (message) => {
        const client = await f.pool.connect();
        try {
          await client.query('BEGIN');
          if (await markProcessed(client, 'retention-apply', message.msgId)) applied.push(message.msgId);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      },
    });
    // Processed records older than the retention, as a week-old deployment would have.
    await f.pool.query(
      `INSERT INTO processed_messages (consumer, msg_id, processed_at)
       SELECT 'retention-apply', 'old-' || i, now() - interval '2 hours' FROM generate_series(1, 40) AS i`,
    );
    // The harshest outbox retention (0: a row may go the moment it is published), every 5 ms.
    const schedule = startPurgeSchedule(
      [
        { name: 'outbox_messages', run: () => purgePublished(f.pool, 0) },
        { name: 'processed_messages', run: () => purgeProcessed(f.pool, HOUR) },
      ],
      5,
      f.logger,
    );
    try {
      for (let batch = 0; batch < total / 10; batch += 1) {
        const rows = Array.from({ length: 10 }, (_, i) => {
          const n = batch * 10 + i;
          return { msgId: `busy-${n}`, subject: `checkout.busy.p${n}`, payload: { n } };
        });
        // Half the batches without NOTIFY: the relay finds them by polling, later, while purges run.
        await writeOutbox(f.pool, rows, batch % 2 === 0);
      }
      await relay.drain();
      await until(() => applied.length >= total, 15_000);
      await schedule.runOnce();
    } finally {
      await schedule.stop();
      await consumer.stop();
      await relay.stop();
    }

    const expected = Array.from({ length: total }, (_, n) => `busy-${n}`);
    const inStream = (await streamMessages(f.nc, f.stream)).map(msgIdOf).filter((id) => id?.startsWith('busy-'));
    expect(inStream).toEqual(expected);
    expect(applied).toEqual(expect.arrayContaining(expected));
    expect(applied).toHaveLength(total);
    expect(await unpublishedCount(f.pool)).toBe(0);
    const outbox = await f.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_messages WHERE msg_id LIKE 'busy-%'");
    expect(outbox.rows[0]!.n).toBe(0);
    const kept = await f.pool.query<{ old: number; fresh: number }>(
      `SELECT count(*) FILTER (WHERE msg_id LIKE 'old-%')::int AS old, count(*) FILTER (WHERE msg_id LIKE 'busy-%')::int AS fresh
         FROM processed_messages WHERE consumer = 'retention-apply'`,
    );
    expect(kept.rows[0]).toEqual({ old: 0, fresh: total });
    await (await jetstreamManager(f.nc)).consumers.delete(f.stream, 'retention-apply');
  });

  it('never purges an unpublished row, however old', async () => {
    await writeOutbox(f.pool, [{ msgId: 'stuck-1', subject: 'checkout.stuck.p1', payload: {} }], false);
    await f.pool.query("UPDATE outbox_messages SET created_at = now() - interval '30 days' WHERE msg_id = 'stuck-1'");
    expect(await purgePublished(f.pool, 0)).toBe(0);
    expect(await unpublishedCount(f.pool)).toBe(1);
    await f.pool.query("DELETE FROM outbox_messages WHERE msg_id = 'stuck-1'");
  });

  it('keeps running the other jobs when one fails, and runs again at the next interval', async () => {
    let runs = 0;
    const schedule = startPurgeSchedule(
      [
        { name: 'broken', run: () => Promise.reject(new Error('database away')) },
        { name: 'counted', run: async () => ++runs },
      ],
      10,
      f.logger,
    );
    try {
      await until(() => runs >= 3);
    } finally {
      await schedule.stop();
    }
    expect(f.logs.some((line) => line['job'] === 'broken' && line['level'] === 50)).toBe(true);
  });
});

describe('purgeConsumedMessages (erasure purging one payment from the stream)', () => {
  const subject = (event: string, payment: string) => prefixedSubject(f.prefix, `checkout.${event}.${payment}`);
  const ofPayment = (payment: string) => [prefixedSubject(f.prefix, paymentMessagesSubjects(payment))];

  it('removes only what every durable consumer processed; the rest once they pass it; other payments untouched', async () => {
    const js = jetstream(f.nc);
    const jsm = await jetstreamManager(f.nc);
    const durable = 'retention-slow';
    await jsm.consumers.add(f.stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      filter_subject: prefixedSubject(f.prefix, paymentMessagesSubjects('*')),
    });
    // An ephemeral reader that never reads: promised nothing, it must not hold the purge back.
    await jsm.consumers.add(f.stream, { ack_policy: AckPolicy.Explicit, inactive_threshold: 60_000_000_000 });
    await js.publish(subject('session.created', 'pay_A'), JSON.stringify({ email: 'a@example.com' }));
    await js.publish(subject('payment.started', 'pay_B'), JSON.stringify({ email: 'b@example.com' }));
    await js.publish(subject('payment.paid', 'pay_A'), JSON.stringify({ email: 'a@example.com' }));

    // Nothing processed yet: nothing goes.
    expect(await purgeConsumedMessages(f.nc, f.stream, ofPayment('pay_A'))).toEqual({ purged: 0, remaining: 2 });

    // The consumer processes the first two (A's session.created, B's start), not A's payment.paid.
    const consumer = await js.consumers.get(f.stream, durable);
    const batch = await consumer.fetch({ max_messages: 2, expires: 2_000 });
    for await (const m of batch) await m.ackAck();
    expect(await purgeConsumedMessages(f.nc, f.stream, ofPayment('pay_A'))).toEqual({ purged: 1, remaining: 1 });
    const left = (await streamMessages(f.nc, f.stream)).filter((m) => m.subject.includes('pay_'));
    expect(left.map((m) => m.subject)).toEqual([subject('payment.started', 'pay_B'), subject('payment.paid', 'pay_A')]);

    // The rest processed: the payment is gone from the stream; B stays.
    const last = await consumer.next({ expires: 10_000 });
    await last!.ackAck();
    expect(await purgeConsumedMessages(f.nc, f.stream, ofPayment('pay_A'))).toEqual({ purged: 1, remaining: 0 });
    const after = (await streamMessages(f.nc, f.stream)).filter((m) => m.subject.includes('pay_'));
    expect(after.map((m) => m.subject)).toEqual([subject('payment.started', 'pay_B')]);
    await jsm.consumers.delete(f.stream, durable);
  });
});
