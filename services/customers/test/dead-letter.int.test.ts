// Risk covered: a checkout event that breaks its contract (or this context's rules) being skipped
// with a log line nobody reads, or retried until it blocks the consumer — over real NATS, the
// customers service's consumer copies it to the dead-letter stream, terminates it, logs it and counts
// it (docs/adr/0022), and creates no customer or order.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connectNats, deadLetterStream, DEFAULT_EVENT_RETENTION, prefixedSubject, readDeadLetters, type NatsConnection } from '@hc/events';
import { createLogger } from '@hc/logging';
import {
  captureMetrics,
  createTestDatabase,
  eventually,
  testNatsPrefix,
  testNatsUrl,
  type MetricCapture,
  type TestDatabase,
} from '@hc/test-kit';
import { loadCustomersConfig } from '../src/config.ts';
import { startCustomersService, type RunningCustomersService } from '../src/customers-service.ts';
import { CUSTOMERS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { createCustomersPrisma, type CustomersPrisma } from '../src/store/prisma.ts';

const logs: Record<string, unknown>[] = [];
const logger = createLogger('customers-dead-letter-test', {
  level: 'info',
  destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
});
const prefix = testNatsPrefix('customers_dlq');
let metrics: MetricCapture;
let db: TestDatabase;
let prisma: CustomersPrisma;
let service: RunningCustomersService;
let nats: NatsConnection;

beforeAll(async () => {
  metrics = captureMetrics();
  db = await createTestDatabase('customers', CUSTOMERS_MIGRATIONS_DIR);
  prisma = createCustomersPrisma(db.url);
  const config = loadCustomersConfig({
    CUSTOMERS_DATABASE_URL: db.url,
    CUSTOMERS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: prefix,
  });
  service = await startCustomersService(config, logger);
  nats = await connectNats(testNatsUrl(), 'customers-dead-letter-test');
});

afterAll(async () => {
  await service.stop();
  const jsm = await jetstreamManager(nats);
  for await (const stream of jsm.streams.list())
    if (stream.config.name.startsWith(prefix.toUpperCase())) await jsm.streams.delete(stream.config.name);
  await nats.drain();
  await prisma.$disconnect();
  await db.drop();
  await metrics.stop();
});

const DEAD_LETTERS = deadLetterStream(prefix, DEFAULT_EVENT_RETENTION).name;
const session = {
  id: 'pay_dlq',
  amount: '40.00',
  currency: 'EUR',
  status: 'open',
  createdAt: 1795320898000,
  customerEmail: 'ann@example.com',
};
const base = { type: 'session.created', occurredAt: 1795320898000, accountId: 'acct_D', livemode: false };

describe('a checkout event that breaks its contract, in the customers consumer', () => {
  it.each([
    ['a session.created without its session (the contract)', { ...base, id: 'pay_dlq1.session.created' }],
    [
      'a session.created whose amount is not a decimal (this context’s rule)',
      { ...base, id: 'pay_dlq2.session.created', session: { ...session, amount: '4O.00' } },
    ],
    ['a payload that is not JSON', 'session.created'],
  ])('%s is dead-lettered with a log line and a metric, and nothing is applied', async (_, payload) => {
    const msgId = `dlq-${JSON.stringify(payload).length}-${logs.length}`;
    const before = await metrics.counter('hc.consumer.dead_lettered');
    const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
    await jetstream(nats).publish(prefixedSubject(prefix, 'checkout.session.created.pay_dlq'), data, { msgID: msgId });

    const letters = await eventually(
      () => readDeadLetters(nats, DEAD_LETTERS).catch(() => []),
      (all) => all.some((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === msgId),
    );
    expect(letters.find((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === msgId)?.data).toBe(data);
    expect(logs.some((l) => l['msgId'] === msgId && l['level'] === 50 && String(l['msg']).includes('dead-lettered'))).toBe(true);
    expect(await metrics.counter('hc.consumer.dead_lettered')).toBe(before + 1);
    expect(await prisma.customer.count()).toBe(0);
    expect(await prisma.order.count()).toBe(0);
  });
});
