// Risk covered: a payload that breaks its event contract being "applied" anyway (a webhook for a
// half-read payment, an erasure read wrongly) or looping forever — over real NATS, the webhooks
// service's consumers (payment events, customer erasures) copy it to the dead-letter stream, terminate
// it, log it and count it (docs/adr/0022), and record nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connectNats, deadLetterStream, DEFAULT_EVENT_RETENTION, prefixedSubject, readDeadLetters, type NatsConnection } from '@hc/events';
import { createLogger } from '@hc/logging';
import { captureMetrics, eventually, testNatsPrefix, testNatsUrl, type MetricCapture } from '@hc/test-kit';
import { startWebhooksStack, type WebhooksStack } from './support/webhooks-stack.ts';

const logs: Record<string, unknown>[] = [];
const logger = createLogger('webhooks-dead-letter-test', {
  level: 'info',
  destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
});
const prefix = testNatsPrefix('webhooks_dlq');
let metrics: MetricCapture;
let webhooks: WebhooksStack;
let nats: NatsConnection;

beforeAll(async () => {
  metrics = captureMetrics();
  webhooks = await startWebhooksStack(logger, prefix);
  nats = await connectNats(testNatsUrl(), 'webhooks-dead-letter-test');
});

afterAll(async () => {
  await webhooks.stop();
  const jsm = await jetstreamManager(nats);
  for await (const stream of jsm.streams.list())
    if (stream.config.name.startsWith(prefix.toUpperCase())) await jsm.streams.delete(stream.config.name);
  await nats.drain();
  await metrics.stop();
});

const DEAD_LETTERS = deadLetterStream(prefix, DEFAULT_EVENT_RETENTION).name;

describe('a payload that breaks its contract, in the webhooks consumers', () => {
  it.each([
    [
      'a payment event without its payment',
      'checkout.payment.paid.pay_dlq1',
      { id: 'x', type: 'payment.paid', occurredAt: 1, accountId: 'acct_D', livemode: false },
    ],
    ['a payment event that is not JSON', 'checkout.payment.paid.pay_dlq2', '{"type":'],
    [
      'a customer.erased with paymentIds of the wrong kind',
      'customers.customer.erased',
      { id: 'y', type: 'customer.erased', occurredAt: 1, accountId: 'acct_D', customerId: 'cus_1', paymentIds: 'pay_1' },
    ],
  ])('%s is dead-lettered with a log line and a metric, and nothing is recorded', async (_, subject, payload) => {
    const msgId = `dlq-${subject}`;
    const before = await metrics.counter('hc.consumer.dead_lettered');
    const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
    await jetstream(nats).publish(prefixedSubject(prefix, subject), data, { msgID: msgId });

    const letters = await eventually(
      () => readDeadLetters(nats, DEAD_LETTERS).catch(() => []),
      (all) => all.some((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === msgId),
    );
    const letter = letters.find((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === msgId)!;
    expect(letter.data).toBe(data);
    expect(letter.headers['Hc-Dead-Letter-Subject']).toBe(prefixedSubject(prefix, subject));
    expect(letter.headers['Hc-Dead-Letter-Reason']).not.toBe('');
    expect(logs.some((l) => l['msgId'] === msgId && l['level'] === 50 && String(l['msg']).includes('dead-lettered'))).toBe(true);
    expect(await metrics.counter('hc.consumer.dead_lettered')).toBe(before + 1);
    expect(await webhooks.prisma.webhookEvent.count()).toBe(0);
  });
});
