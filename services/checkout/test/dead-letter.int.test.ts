// Risk covered: a customer erasure or a settlement verdict that breaks its contract being skipped
// silently (a buyer's email kept, a verdict lost without trace) — over real NATS, checkout's
// consumers copy it to the dead-letter stream, terminate it, log it and count it (docs/adr/0022).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connectNats, deadLetterStream, DEFAULT_EVENT_RETENTION, prefixedSubject, readDeadLetters, type NatsConnection } from '@hc/events';
import { createLogger } from '@hc/logging';
import { captureMetrics, eventually, type MetricCapture } from '@hc/test-kit';
import { startCheckoutStack, type CheckoutStack } from '../src/testing/checkout-stack.ts';

const logs: Record<string, unknown>[] = [];
const logger = createLogger('checkout-dead-letter-test', {
  level: 'info',
  destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
});
let metrics: MetricCapture;
let stack: CheckoutStack;
let nats: NatsConnection;

beforeAll(async () => {
  metrics = captureMetrics();
  stack = await startCheckoutStack(logger, { label: 'checkout_dlq' });
  nats = await connectNats(stack.natsUrl, 'checkout-dead-letter-test');
});

afterAll(async () => {
  await nats.drain();
  await stack.stop();
  await metrics.stop();
});

describe('a payload that breaks its contract, in the checkout consumers', () => {
  it.each([
    [
      'a customer.erased without an account',
      'customers.customer.erased',
      { id: 'c1', type: 'customer.erased', occurredAt: 1, accountId: '', customerId: 'cus_1', paymentIds: [] },
    ],
    ['a customer.erased that is not JSON', 'customers.customer.erased', 'customer.erased'],
    ['a verdict without its verdict', 'settlement.verdict.reached', { accountId: 'acct_D', livemode: false }],
  ])('%s is dead-lettered with a log line and a metric', async (_, subject, payload) => {
    const msgId = `dlq-${subject}-${logs.length}`;
    const before = await metrics.counter('hc.consumer.dead_lettered');
    const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
    await jetstream(nats).publish(prefixedSubject(stack.natsPrefix, subject), data, { msgID: msgId });

    const deadLetters = deadLetterStream(stack.natsPrefix, DEFAULT_EVENT_RETENTION).name;
    const letters = await eventually(
      () => readDeadLetters(nats, deadLetters).catch(() => []),
      (all) => all.some((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === msgId),
    );
    const letter = letters.find((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === msgId);
    expect(letter?.data).toBe(data);
    expect(letter?.headers['Hc-Dead-Letter-Subject']).toBe(prefixedSubject(stack.natsPrefix, subject));
    expect(logs.some((l) => l['msgId'] === msgId && l['level'] === 50 && String(l['msg']).includes('dead-lettered'))).toBe(true);
    expect(await metrics.counter('hc.consumer.dead_lettered')).toBe(before + 1);
  });
});
