/**
 * Delivery lag: from a payment event's occurredAt (checkout's clock, at the state change) to the
 * moment a local receiver has the signed webhook. Runs the real chain — checkout and settlement over
 * gRPC, the outbox relay, JetStream, the webhooks consumer, the delivery worker, HTTP — on this
 * machine's PostgreSQL and NATS, with throw-away databases and a stream prefix of its own.
 *
 *   node tools/bench/src/delivery-lag.ts [payments=200] [concurrency=8]
 *
 * Each payment is started and simulated paid: two events, so 2×N webhooks. Prints p50/p90/p99/max.
 */
import { CHECKOUT_MIGRATIONS_DIR, startCheckoutService } from '@hc/checkout';
import { connectNats, consumeDurable, DEFAULT_EVENT_RETENTION } from '@hc/events';
import { createServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR, startSettlementService } from '@hc/settlement';
import { createTestDatabase, testNatsPrefix, testNatsUrl } from '@hc/test-kit';
import { webhookEventId } from '../../../services/webhooks/src/domain/event-id.ts';
import { checkoutStream, paymentEventsFilter } from '../../../services/webhooks/src/adapters/streams.ts';
import { WebhookReceiver } from '../../../services/webhooks/test/support/receiver.ts';
import { startWebhooksStack } from '../../../services/webhooks/test/support/webhooks-stack.ts';

const payments = Number(process.argv[2] ?? 200);
const concurrency = Number(process.argv[3] ?? 8);
const logger = createLogger('delivery-lag-bench', { level: 'silent' });
const ctx = { accountId: 'acct_bench', livemode: false, requestId: 'req_bench' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };

const prefix = testNatsPrefix('bench');
const databases = await Promise.all([
  createTestDatabase('checkout', CHECKOUT_MIGRATIONS_DIR),
  createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR),
]);
const settlement = await startSettlementService(
  loadSettlementConfig({
    SETTLEMENT_DATABASE_URL: databases[1]!.url,
    SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
    SETTLEMENT_LOCAL_MODE: 'true',
    LOG_LEVEL: 'silent',
  }),
  logger,
);
const checkout = await startCheckoutService(
  {
    CHECKOUT_DATABASE_URL: databases[0]!.url,
    CHECKOUT_GRPC_ADDRESS: '127.0.0.1:0',
    PUBLIC_BASE_URL: 'https://pay.example.test',
    SETTLEMENT_GRPC_ADDRESS: settlement.address,
    SETTLEMENT_TIMEOUT_MS: 5000,
    // No buyer pages here: nothing reads accounts from the gateway's admin listener (ADR 0037).
    ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:1',
    ACCOUNTS_TIMEOUT_MS: 5000,
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: prefix,
    EXPIRY_SWEEP_INTERVAL_MS: 300_000,
    LOG_LEVEL: 'silent',
    ...DEFAULT_EVENT_RETENTION,
  },
  logger,
);
const receiver = await new WebhookReceiver().start();
// Production delivery settings, except that the receiver is on loopback.
const webhooks = await startWebhooksStack(
  logger,
  prefix,
  { WEBHOOKS_RETRY_SCHEDULE: '0s,5s,5m', WEBHOOKS_DELIVERY_TIMEOUT: '10s', WEBHOOKS_LEASE: '2m', WEBHOOKS_POLL_INTERVAL: '1s' },
  {},
);
const { secret } = await webhooks.client.createEndpoint({ url: receiver.url('/bench') }, ctx);
receiver.trust(secret);

// When each source event happened, read off the stream by a consumer of the bench's own.
const occurredAt = new Map<string, number>();
const onStream = new Map<string, number>();
const nats = await connectNats(testNatsUrl(), 'delivery-lag-bench');
const tap = await consumeDurable({
  nats,
  stream: checkoutStream(prefix, DEFAULT_EVENT_RETENTION).name,
  durable: 'bench_tap',
  filterSubject: paymentEventsFilter(prefix),
  logger,
  handle: async (m) => {
    occurredAt.set(webhookEventId(m.msgId), (m.data as { occurredAt: number }).occurredAt);
    onStream.set(webhookEventId(m.msgId), Date.now());
  },
});

const client = createServiceClient(CheckoutService, checkout.address);
const started = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < payments) {
      next += 1;
      const { payment } = await client.createCheckoutSession(
        { amount: '25.00', currency: 'USD', description: 'Bench', customerEmail: 'b@e.io', account },
        ctx,
      );
      await client.startCheckoutSession({ id: payment!.id, account }, ctx);
      await client.simulatePayment({ id: payment!.id, outcome: 'paid' }, ctx);
    }
  }),
);
const expected = payments * 2;
await receiver.waitFor((all) => new Set(all.map((d) => d.body.id)).size >= expected, 120_000);
const elapsedS = (Date.now() - started) / 1000;
const deadline = Date.now() + 10_000;
while (occurredAt.size < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));

const firstArrival = new Map<string, number>();
for (const d of receiver.deliveries) if (!firstArrival.has(d.body.id)) firstArrival.set(d.body.id, d.receivedAt);
const lags = [...firstArrival].map(([id, at]) => at - occurredAt.get(id)!).sort((a, b) => a - b);
const pct = (p: number): number => lags[Math.min(lags.length - 1, Math.ceil((p / 100) * lags.length) - 1)]!;
console.log(
  `delivery lag over ${lags.length} webhooks (${payments} payments, ${concurrency} at a time, ${elapsedS.toFixed(1)} s, ${(expected / elapsedS).toFixed(0)} webhooks/s):`,
);
console.log(`  p50 ${pct(50)} ms   p90 ${pct(90)} ms   p99 ${pct(99)} ms   max ${lags.at(-1)} ms`);
// Where the time goes: source event → read off the stream by the tap (outbox relay, JetStream) →
// webhook event stored (the webhooks consumer) → first
// attempt started (delivery worker queue) → received (signing, HTTP).
const stages = await webhooks.prisma.$queryRaw<{ id: string; stored: Date; attempted: Date | null }[]>`
  SELECT e.id, e.created_at AS stored, min(a.attempted_at) AS attempted
    FROM webhook_events e LEFT JOIN delivery_attempts a ON a.event_id = e.id
   GROUP BY e.id, e.created_at`;
const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const toStream: number[] = [];
const toStored: number[] = [];
const toAttempt: number[] = [];
const toReceived: number[] = [];
for (const s of stages) {
  const at = occurredAt.get(s.id);
  const received = firstArrival.get(s.id);
  if (at === undefined || received === undefined || s.attempted === null) continue;
  toStream.push(onStream.get(s.id)! - at);
  toStored.push(s.stored.getTime() - onStream.get(s.id)!);
  toAttempt.push(s.attempted.getTime() - s.stored.getTime());
  toReceived.push(received - s.attempted.getTime());
}
console.log(
  `  p50 by stage: source → read off the stream ${median(toStream)} ms, → stored ${median(toStored)} ms, stored → attempt ${median(toAttempt)} ms, attempt → received ${median(toReceived)} ms`,
);
console.log(
  `  duplicates at the receiver: ${receiver.deliveries.length - firstArrival.size}; all verified: ${receiver.deliveries.every((d) => d.verifiedBy.length === 1)}`,
);

await tap.stop();
await nats.drain();
client.close();
await webhooks.stop();
await checkout.stop();
await settlement.stop();
await receiver.stop();
await Promise.all(databases.map((db) => db.drop()));
