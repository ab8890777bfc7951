/**
 * "Measure before choosing" (issue 14, docs/adr/0030): checkout's hot store operations, Prisma (what
 * the store did before) versus the prepared statements on a pg pool (what it does now), at the same
 * concurrency, in one run, on a database of its own. Both sides share one pool of CHECKOUT_POOL_SIZE.
 *
 *   create   Prisma interactive transaction (BEGIN, INSERT, INSERT outbox, NOTIFY, COMMIT)  vs  one statement
 *   find     checkoutSession.findFirst (id + account + mode)                                 vs  one prepared SELECT
 *   list     checkoutSession.findMany (20 newest of the account and mode)                     vs  one prepared SELECT
 *
 *   node tools/bench/src/checkout-store.ts [seconds=5] [concurrency=64]
 *
 * Prints operations/s and p50/p99; asserts nothing.
 */
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '@hc/db';
import { OUTBOX_NOTIFY_SQL } from '@hc/events';
import {
  CHECKOUT_MIGRATIONS_DIR,
  PaymentStore,
  createCheckoutDatabase,
  NO_CUSTOMER_DETAILS as NO_CUSTOMER,
  sessionCreatedEvent,
  sessionEventPayload,
  UNSTARTED,
  type Payment,
} from '@hc/checkout';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { load1, percentiles } from './measure.ts';
import { checkoutEventSubject } from '@hc/events/contracts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 64);
const url = withDatabase(testDatabaseServerUrl(), `bench_checkout_${process.pid}`);
await ensureDatabase(url);
await migrateDatabase(url, CHECKOUT_MIGRATIONS_DIR);
const database = createCheckoutDatabase(url);
const { prisma } = database;
const store = new PaymentStore(database, { publicBaseUrl: 'https://pay.example.test', providers: [] });
const scope = { accountId: 'acct_bench', livemode: false };

let created = 0;
function newPayment(): Payment {
  const createdAt = new Date();
  created += 1;
  return {
    id: `pay_bench${process.pid}x${created}`,
    ...scope,
    status: 'open',
    amount: '25.00',
    currency: 'EUR',
    description: 'Blue mug',
    reference: null,
    customerEmail: null,
    metadata: null,
    successUrl: null,
    cancelUrl: null,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 3_600_000),
    merchantName: 'Bench',
    locale: null,
    ...UNSTARTED,
  };
}

async function prismaCreate(): Promise<void> {
  const payment = newPayment();
  const { settlement, metadata: _metadata, ...fields } = payment;
  const event = sessionCreatedEvent(payment, NO_CUSTOMER);
  await prisma.$transaction(async (tx) => {
    await tx.checkoutSession.create({ data: { ...fields, ...settlement } });
    await tx.outboxMessage.createMany({
      data: [
        {
          msgId: event.id,
          subject: checkoutEventSubject('session.created', payment.id),
          payload: sessionEventPayload(event),
          traceParent: null,
        },
      ],
      skipDuplicates: true,
    });
    await tx.$executeRawUnsafe(OUTBOX_NOTIFY_SQL);
  });
}

async function measure(title: string, operation: () => Promise<unknown>): Promise<void> {
  const load = load1();
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const began = performance.now();
        await operation().catch(() => (errors += 1));
        latencies.push(performance.now() - began);
      }
    }),
  );
  const { p50, p99 } = percentiles(latencies);
  console.log(
    `${title.padEnd(44)} ${(latencies.length / seconds).toFixed(0).padStart(7)} /s  p50 ${p50.toFixed(2).padStart(7)} ms  p99 ${p99.toFixed(2).padStart(7)} ms  errors ${errors}  load ${load.toFixed(1)}`,
  );
}

try {
  const known = newPayment();
  await store.insert(known, sessionCreatedEvent(known, NO_CUSTOMER));
  for (let round = 1; round <= 2; round += 1) {
    await measure('create: Prisma interactive transaction', prismaCreate);
    await measure('create: one prepared statement (pg)', () => {
      const payment = newPayment();
      return store.insert(payment, sessionCreatedEvent(payment, NO_CUSTOMER));
    });
    await measure('find: Prisma findFirst', () => prisma.checkoutSession.findFirst({ where: { id: known.id, ...scope } }));
    await measure('find: prepared SELECT (pg)', () => store.find(scope, known.id));
    await measure('list 20: Prisma findMany', () =>
      prisma.checkoutSession.findMany({ where: scope, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 20 }),
    );
    await measure('list 20: prepared SELECT (pg)', () => store.list(scope, 20));
  }
} finally {
  await database.close();
  await dropDatabase(url).catch(() => undefined);
}
