// Risk covered: a customer erasure or a settlement verdict whose payload breaks its contract being
// "applied", silently skipped, or retried forever. Each must be copied to the dead-letter stream,
// terminated, logged and counted (docs/adr/0022).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connectNats, deadLetterStream, DEFAULT_EVENT_RETENTION, prefixedSubject, readDeadLetters, type NatsConnection } from '@hc/events';
import { createLogger } from '@hc/logging';
import { captureLogs, captureMetrics, eventually, type MetricCapture } from '@hc/test-kit';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { CUSTOMER_ERASED_SUBJECT, VERDICT_REACHED_SUBJECT } from '@hc/events/contracts';

const logs = captureLogs();
const logger = createLogger('checkout-dead-letter-test', { level: 'info', destination: logs.destination });
let meters: MetricCapture;
let stack: CheckoutStack;
let nc: NatsConnection;

beforeAll(async () => {
  meters = captureMetrics();
  stack = await startCheckoutStack(logger, { label: 'co-dl' });
  nc = await connectNats(stack.natsUrl, 'checkout-dead-letter-test');
});

afterAll(async () => {
  await nc.close();
  await stack.stop();
  await meters.stop();
});

it('dead-letters an erasure and a verdict that break their contracts, with a log line and a metric', async () => {
  const js = jetstream(nc);
  const prefix = stack.natsPrefix;
  // Before the contract this erasure was "skipped" with a warning: now it is kept for an operator.
  await js.publish(prefixedSubject(prefix, CUSTOMER_ERASED_SUBJECT), JSON.stringify({ type: 'customer.erased', livemode: 'no' }), {
    msgID: 'bad-erasure',
  });
  await js.publish(prefixedSubject(prefix, VERDICT_REACHED_SUBJECT), JSON.stringify({ accountId: 'acct_1' }), {
    msgID: 'bad-verdict',
  });
  const letters = await eventually(
    () => readDeadLetters(nc, deadLetterStream(prefix, DEFAULT_EVENT_RETENTION).name),
    (found) => found.length === 2,
    30_000,
  );
  expect(letters.map((l) => [l.subject, l.headers['Hc-Dead-Letter-Msg-Id']]).sort()).toEqual([
    [prefixedSubject(prefix, 'deadletter.checkout-customer-erasure'), 'bad-erasure'],
    [prefixedSubject(prefix, 'deadletter.checkout-settlement-verdicts'), 'bad-verdict'],
  ]);
  await eventually(
    async () => logs.lines.filter((l) => l['msg'] === 'event consumer: payload breaks its event contract; dead-lettered').length,
    (n) => n === 2,
  );
  expect(await meters.counter('hc.consumer.dead_lettered', { consumer: 'checkout-customer-erasure' })).toBe(1);
  expect(await meters.counter('hc.consumer.dead_lettered', { consumer: 'checkout-settlement-verdicts' })).toBe(1);
});
