// Risk covered: the delivery log (bodies with buyers' details) kept forever, or its purge removing an
// event that is still being delivered (a webhook lost) or a recent one (the log merchants read).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCheckoutStack, type CheckoutStack } from '@hc/checkout/testing';
import { createServiceClient, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { eventually } from '@hc/test-kit';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { DeliveryLogRetention } from '../src/store/delivery-log-retention.ts';
import { WebhookReceiver } from './support/receiver.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-retention-test', { level: 'silent' });
const ctx = testScope('acct_R');
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };
const DAY = 86_400_000;

let stack: CheckoutStack;
let checkout: ServiceClient<typeof CheckoutService>;
let webhooks: WebhooksStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'webhooks_retention' });
  checkout = createServiceClient(CheckoutService, stack.checkout.address);
  receiver = await new WebhookReceiver().start();
  webhooks = await startWebhooksStack(logger, stack.natsPrefix);
  const created = await webhooks.client.createEndpoint({ url: receiver.url('/r'), description: 'retention' }, ctx);
  receiver.trust(created.secret);
});

afterAll(async () => {
  checkout.close();
  await webhooks.stop();
  await stack.stop();
  await receiver.stop();
});

/** A paid payment whose two events (started, paid) were delivered. */
async function paidPayment(): Promise<string> {
  const { payment } = await checkout.createCheckoutSession(
    { amount: '10.00', currency: 'EUR', description: 'Mug', customerEmail: 'rita@example.com', account },
    ctx,
  );
  const id = payment!.id;
  await checkout.startCheckoutSession({ id, account }, ctx);
  await checkout.simulatePayment({ id, outcome: 'paid' }, ctx);
  await receiver.waitFor(() => receiver.at('/r').filter((d) => d.body.data.payment?.['id'] === id).length >= 2);
  // The receiver has them before their attempts are recorded (a success is committed after the answer,
  // with the others finishing then): wait for both records, or a count below could miss one.
  await eventually(
    () => logged(id),
    (log) => log.attempts >= 2,
  );
  return id;
}

async function logged(paymentId: string): Promise<{ events: number; deliveries: number; attempts: number }> {
  const events = await webhooks.prisma.webhookEvent.findMany({ where: { paymentId }, select: { id: true } });
  const eventId = { in: events.map((e) => e.id) };
  return {
    events: events.length,
    deliveries: await webhooks.prisma.webhookDelivery.count({ where: { eventId } }),
    attempts: await webhooks.prisma.deliveryAttempt.count({ where: { eventId } }),
  };
}

describe('the delivery log window (WEBHOOKS_LOG_RETENTION, 30 days)', () => {
  it('removes events older than the window with their deliveries and attempts, except one still being delivered', async () => {
    const [old, oldInFlight, recent] = [await paidPayment(), await paidPayment(), await paidPayment()];
    await webhooks.prisma.webhookEvent.updateMany({
      where: { paymentId: { in: [old, oldInFlight] } },
      data: { createdAt: new Date(Date.now() - 31 * DAY) },
    });
    // One event of the second payment is still being retried (its next attempt is tomorrow).
    const inFlight = await webhooks.prisma.webhookEvent.findFirstOrThrow({ where: { paymentId: oldInFlight, type: 'payment.paid' } });
    await webhooks.prisma.webhookDelivery.updateMany({
      where: { eventId: inFlight.id },
      data: { status: 'pending', nextAttemptAt: new Date(Date.now() + DAY), completedAt: null },
    });

    // While the service runs (worker and consumers live).
    expect(await new DeliveryLogRetention(webhooks.prisma).purge(30 * DAY)).toBe(3);

    expect(await logged(old)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
    expect(await logged(oldInFlight)).toEqual({ events: 1, deliveries: 1, attempts: 1 });
    expect(await webhooks.prisma.webhookEvent.findUnique({ where: { id: inFlight.id } })).not.toBeNull();
    expect(await logged(recent)).toEqual({ events: 2, deliveries: 2, attempts: 2 });
    expect(await new DeliveryLogRetention(webhooks.prisma).purge(30 * DAY)).toBe(0);
  });
});
