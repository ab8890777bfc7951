/**
 * What erasing costs on the bus and in the tables (ADR 0017), against the local NATS and PostgreSQL
 * (@hc/test-kit, as the tests use them). Prints figures; asserts nothing.
 *
 *   node tools/bench/src/erasure-purge.ts [payments=3000]
 *
 * 1. A checkout stream holding `payments` payments × 3 messages, each subject ending in the payment id,
 *    read by one durable consumer that is caught up: the latency of purgeConsumedMessages for one
 *    payment (what an erasure does per payment), beside a baseline measured in the same run: one
 *    stream-info round trip (the least any purge can cost). Then the same at 10× the payments, to see
 *    whether per-payment subjects make the filtered purge grow with the stream.
 * 2. 100 000 published outbox rows: purgePublished's rows per second (5 000-row slices), beside the
 *    baseline of one `SELECT count(*)` over the same table.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { testNatsPrefix } from '@hc/test-kit';
import { contextStream, DEFAULT_EVENT_RETENTION, ensureStream, prefixedSubject, purgeConsumedMessages, purgePublished } from '@hc/events';
import { paymentMessagesSubjects } from '@hc/events/contracts';
import { setUp } from '../../../packages/events/test/support.ts';

const payments = Number(process.argv[2] ?? 3_000);
const SAMPLES = 100;

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

const f = await setUp('bench_purge');

async function streamOf(count: number): Promise<{ name: string; prefix: string }> {
  const prefix = testNatsPrefix(`bench_${count}`);
  const stream = contextStream(prefix, 'checkout', DEFAULT_EVENT_RETENTION);
  await ensureStream(f.nc, stream);
  const js = jetstream(f.nc);
  const types = ['session.created', 'payment.started', 'payment.paid'];
  for (let start = 0; start < count; start += 500) {
    const acks: Promise<unknown>[] = [];
    for (let p = start; p < Math.min(count, start + 500); p += 1) {
      for (const type of types)
        acks.push(js.publish(prefixedSubject(prefix, `checkout.${type}.pay_${p}`), JSON.stringify({ email: `b${p}@example.com` })));
    }
    await Promise.all(acks);
  }
  const jsm = await jetstreamManager(f.nc);
  // Caught up: a durable that starts after the last message has nothing pending.
  await jsm.consumers.add(stream.name, { durable_name: 'bench', ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New });
  return { name: stream.name, prefix };
}

async function measureStream(count: number): Promise<void> {
  const { name, prefix } = await streamOf(count);
  const jsm = await jetstreamManager(f.nc);
  const baseline: number[] = [];
  const purge: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const t0 = performance.now();
    await jsm.streams.info(name);
    baseline.push(performance.now() - t0);
    const payment = Math.floor((i * count) / SAMPLES);
    // As checkout's erasure does it: one filter for every message of the payment.
    const t1 = performance.now();
    const result = await purgeConsumedMessages(f.nc, name, [prefixedSubject(prefix, paymentMessagesSubjects(`pay_${payment}`))]);
    purge.push(performance.now() - t1);
    if (result.purged !== 3 || result.remaining !== 0) throw new Error(`unexpected purge ${JSON.stringify(result)}`);
  }
  console.log(`stream of ${count * 3} messages (${count} payments):`);
  console.log(`  baseline, one stream info:           ${percentiles(baseline)}`);
  console.log(`  purgeConsumedMessages, one payment:  ${percentiles(purge)}`);
  await jsm.streams.delete(name);
}

await measureStream(payments);
await measureStream(payments * 10);

const ROWS = 100_000;
await f.pool.query(
  `INSERT INTO outbox_messages (msg_id, subject, payload, published_at)
   SELECT 'bench-' || i, 'checkout.bench', '{"email":"x@example.com"}', now() - interval '2 days' FROM generate_series(1, ${ROWS}) AS i`,
);
const c0 = performance.now();
await f.pool.query('SELECT count(*) FROM outbox_messages');
const countMs = performance.now() - c0;
const p0 = performance.now();
const purged = await purgePublished(f.pool, 86_400_000);
const purgeMs = performance.now() - p0;
console.log(`outbox of ${ROWS} published rows:`);
console.log(`  baseline, SELECT count(*):           ${countMs.toFixed(1)} ms`);
console.log(
  `  purgePublished:                      ${purgeMs.toFixed(1)} ms for ${purged} rows (${Math.round(purged / (purgeMs / 1000))} rows/s)`,
);

await f.close();
