// Risk covered: the consumer's group commit (several source events in one transaction) doubling,
// dropping or mixing up events — duplicates inside a batch, events already applied, two accounts and
// modes in one batch, a payload that is not a payment event, and a failed batch retried one by one.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { testNatsPrefix } from '@hc/test-kit';
import { recordInGroups as groupCommit } from '../src/api/consumers/consumers.ts';
import { recordPaymentEvents } from '../src/use-cases/record-payment-event.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-test', { level: 'silent' });
let webhooks: WebhooksStack;
const endpoints: Record<string, string> = {};

const paid = (accountId: string, livemode: boolean, paymentId: string) => ({
  type: 'payment.paid',
  occurredAt: Date.now(),
  accountId,
  livemode,
  payment: { id: paymentId },
});

beforeAll(async () => {
  webhooks = await startWebhooksStack(logger, testNatsPrefix('wh-group'));
  for (const [key, ctx] of [
    ['aTest', testScope('acct_GA')],
    ['aLive', testScope('acct_GA', true)],
    ['bTest', testScope('acct_GB')],
  ] as const) {
    // Unroutable on purpose: only the queued deliveries matter here.
    const created = await webhooks.client.createEndpoint({ url: 'https://127.0.0.1:9/' + key }, ctx);
    endpoints[key] = created.endpoint!.id;
  }
});

afterAll(async () => {
  await webhooks.stop();
});

it('applies a batch once per message id, each event to its own account and mode', async () => {
  const deps = webhooks.service.deps;
  expect(await recordPaymentEvents(deps, [{ msgId: 'm-before', data: paid('acct_GA', false, 'pay_0') }])).toEqual([
    { kind: 'recorded', deliveries: 1 },
  ]);
  const outcomes = await recordPaymentEvents(deps, [
    { msgId: 'm-1', data: paid('acct_GA', false, 'pay_1') },
    { msgId: 'm-before', data: paid('acct_GA', false, 'pay_0') },
    { msgId: 'm-2', data: paid('acct_GA', true, 'pay_2') },
    { msgId: 'm-1', data: paid('acct_GA', false, 'pay_1') },
    { msgId: 'm-3', data: { type: 'not.a.payment' } },
    { msgId: 'm-4', data: paid('acct_GB', false, 'pay_1') },
    { msgId: 'm-5', data: paid('acct_GC', false, 'pay_5') },
  ]);
  expect(outcomes).toEqual([
    { kind: 'recorded', deliveries: 1 },
    { kind: 'duplicate' },
    { kind: 'recorded', deliveries: 1 },
    { kind: 'duplicate' },
    { kind: 'ignored' },
    { kind: 'recorded', deliveries: 1 },
    { kind: 'recorded', deliveries: 0 },
  ]);
  const events = await webhooks.prisma.webhookEvent.findMany({ include: { deliveries: true }, orderBy: { seq: 'asc' } });
  expect(events.map((e) => [e.sourceMsgId, e.accountId, e.livemode, e.deliveries.map((d) => d.endpointId)])).toEqual([
    ['m-before', 'acct_GA', false, [endpoints.aTest]],
    ['m-1', 'acct_GA', false, [endpoints.aTest]],
    ['m-2', 'acct_GA', true, [endpoints.aLive]],
    ['m-4', 'acct_GB', false, [endpoints.bTest]],
    ['m-5', 'acct_GC', false, []],
  ]);
});

it('group commit: concurrent messages share a transaction, and a failing batch is retried message by message', async () => {
  const deps = webhooks.service.deps;
  const real = deps.events.recordPaymentEvents.bind(deps.events);
  const batchSizes: number[] = [];
  const events = Object.create(deps.events) as typeof deps.events;
  events.recordPaymentEvents = async (consumer, batch, now) => {
    batchSizes.push(batch.length);
    // A batch of several fails once: each message must then be applied on its own.
    if (batch.length > 1 && batchSizes.filter((n) => n > 1).length === 1) throw new Error('batch failed');
    return real(consumer, batch, now);
  };
  const record = groupCommit({ ...deps, events });
  const first = record({ msgId: 'g-0', data: paid('acct_GA', false, 'pay_g0') });
  await new Promise((resolve) => setImmediate(resolve)); // the end of the turn: the first commit has started (ADR 0072)
  const rest = ['g-1', 'g-2', 'g-3'].map((msgId, i) => record({ msgId, data: paid('acct_GA', false, `pay_g${i + 1}`) }));
  const more = ['g-4', 'g-5'].map((msgId, i) => record({ msgId, data: paid('acct_GA', false, `pay_g${i + 4}`) }));
  expect(await Promise.all([first, ...rest, ...more])).toEqual(Array(6).fill({ kind: 'recorded', deliveries: 1 }));
  // The first message alone, the five that queued behind it together (failing), then each of those alone.
  expect(batchSizes).toEqual([1, 5, 1, 1, 1, 1, 1]);
  const stored = await webhooks.prisma.webhookEvent.count({ where: { sourceMsgId: { startsWith: 'g-' } } });
  expect(stored).toBe(6);
});
