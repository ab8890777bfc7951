// Risk covered: a payload that breaks its event contract being recorded as a webhook (or an erasure
// "applied"), silently dropped, or looping forever. Each of this context's consumers must copy it to
// the dead-letter stream, terminate it, log it and count it (docs/adr/0022), and keep consuming.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connectNats, deadLetterStream, prefixedSubject, readDeadLetters, type NatsConnection } from '@hc/events';
import { createLogger } from '@hc/logging';
import { captureLogs, captureMetrics, eventually, testNatsPrefix, testNatsUrl, type MetricCapture } from '@hc/test-kit';
import { startWebhooksStack, type WebhooksStack } from './support/webhooks-stack.ts';
import { checkoutEventSubject, CUSTOMER_ERASED_SUBJECT } from '@hc/events/contracts';

const logs = captureLogs();
const logger = createLogger('webhooks-dead-letter-test', { level: 'info', destination: logs.destination });
const prefix = testNatsPrefix('wh-dl');
let meters: MetricCapture;
let webhooks: WebhooksStack;
let nc: NatsConnection;

beforeAll(async () => {
  meters = captureMetrics();
  webhooks = await startWebhooksStack(logger, prefix);
  nc = await connectNats(testNatsUrl(), 'webhooks-dead-letter-test');
});

afterAll(async () => {
  await nc.close();
  await webhooks.stop();
  await meters.stop();
});

it('dead-letters a payment event and an erasure that break their contracts, with a log line and a metric', async () => {
  const js = jetstream(nc);
  await js.publish(prefixedSubject(prefix, checkoutEventSubject('payment.paid', 'pay_bad')), 'not json', { msgID: 'bad-json' });
  await js.publish(
    prefixedSubject(prefix, checkoutEventSubject('payment.paid', 'pay_bad2')),
    JSON.stringify({ type: 'payment.paid', accountId: 'acct_1' }),
    {
      msgID: 'bad-shape',
    },
  );
  await js.publish(prefixedSubject(prefix, CUSTOMER_ERASED_SUBJECT), JSON.stringify({ type: 'customer.erased', paymentIds: 'pay_1' }), {
    msgID: 'bad-erasure',
  });
  const stream = deadLetterStream(prefix, webhooks.config).name;
  const letters = await eventually(
    () => readDeadLetters(nc, stream),
    (found) => found.length === 3,
    30_000,
  );
  await eventually(
    async () => logs.lines.filter((l) => String(l['msg']).includes('dead-lettered')).length,
    (n) => n === 3,
  );
  expect(letters.map((l) => [l.subject, l.headers['Hc-Dead-Letter-Msg-Id']]).sort()).toEqual(
    [
      [prefixedSubject(prefix, 'deadletter.webhooks_customer_erasures'), 'bad-erasure'],
      [prefixedSubject(prefix, 'deadletter.webhooks_payment_events'), 'bad-json'],
      [prefixedSubject(prefix, 'deadletter.webhooks_payment_events'), 'bad-shape'],
    ].sort(),
  );
  expect(letters.find((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === 'bad-json')?.data).toBe('not json');
  expect(letters.find((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === 'bad-shape')?.headers['Hc-Dead-Letter-Reason']).toContain(
    'hc.checkout.v1.PaymentEvent',
  );
  // Nothing recorded, nothing delivered.
  expect(await webhooks.prisma.webhookEvent.count()).toBe(0);
  const refused = logs.lines.filter((l) => l['msg'] === 'event consumer: payload breaks its event contract; dead-lettered');
  expect(refused.map((l) => l['msgId']).sort()).toEqual(['bad-erasure', 'bad-json', 'bad-shape']);
  expect(await meters.counter('hc.consumer.dead_lettered', { consumer: 'webhooks_payment_events' })).toBe(2);
  expect(await meters.counter('hc.consumer.dead_lettered', { consumer: 'webhooks_customer_erasures' })).toBe(1);
});
