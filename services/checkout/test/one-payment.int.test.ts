// Risk covered: calls and events describing one payment in two shapes that drift apart (ADR 0102).
// Over real gRPC, PostgreSQL and JetStream: the Payment a call answers is the Payment the event
// published for the same change, field for field, and every answer carries it (the deprecated
// CheckoutSession copy went in the contract step, ADR 0106).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fromJson, toJson, type JsonObject } from '@bufbuild/protobuf';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { PaymentSchema } from '@hc/proto/checkout/v1/payment';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { logPaymentEvents, type PaymentEventLog } from './support/payment-event-log.ts';

const logger = createLogger('one-payment-test', { level: 'silent' });
const test: CallContext = { accountId: 'acct_OP', livemode: false, requestId: 'req_op' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150, merchantName: 'Shop' };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
let admin: ServiceClient<typeof CheckoutAdminService>;
let events: PaymentEventLog;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'one-payment' });
  client = createServiceClient(CheckoutService, stack.checkout.address);
  admin = createServiceClient(CheckoutAdminService, stack.checkout.address);
  events = await logPaymentEvents(stack, 'one-payment', logger);
});

afterAll(async () => {
  await events.stop();
  client.close();
  admin.close();
  await stack.stop();
});

const create = {
  amount: '12.50',
  currency: 'EUR',
  description: 'Kettle',
  reference: 'ORD-1',
  customerEmail: 'ada@example.com',
  metadata: { entries: { cart: 'c_1' } },
  successUrl: 'https://shop.example/ok/{PAYMENT_ID}',
  cancelUrl: 'https://shop.example/back',
  locale: 'de',
  account,
};

describe('one Payment message for calls and events', () => {
  it('a call answers the payment its event published, in the same message', async () => {
    const created = await client.createCheckoutSession(create, test);
    const id = created.payment!.id;
    const started = await client.startCheckoutSession({ id, account, country: 'de' }, test);
    const paid = await client.simulatePayment({ id, outcome: 'paid' }, test);
    const [startedEvent, paidEvent] = await events.atLeast(id, 2, 10_000);
    expect([startedEvent!.type, paidEvent!.type]).toEqual(['payment.started', 'payment.paid']);
    expect(toJson(PaymentSchema, started.payment!)).toEqual(toJson(PaymentSchema, fromEvent(startedEvent!.payment)));
    expect(toJson(PaymentSchema, paid.updated!)).toEqual(toJson(PaymentSchema, fromEvent(paidEvent!.payment)));
    expect(paid.updated).toMatchObject({ status: 'paid', mode: 'test', cancelUrl: create.cancelUrl, country: 'DE', merchantName: 'Shop' });
    expect(paid.updated!.startedAt).toBeGreaterThan(0n);
  });

  it('every answer carries the payment as the one Payment message (ADR 0106: no deprecated copy any more)', async () => {
    const { payment } = await client.createCheckoutSession(create, test);
    expect(payment).toMatchObject({ status: 'open', amount: '12.50', reference: 'ORD-1', metadata: { cart: 'c_1' }, locale: 'de' });
    expect((await client.getCheckoutSession({ id: payment!.id }, test)).payment).toEqual(payment);
    const grouped = await client.getCheckoutSessions({ calls: [{ id: payment!.id }], requestIds: ['req_a'] }, test);
    expect(grouped.outcomes[0]!.outcome).toMatchObject({ case: 'answer', value: { payment: { id: payment!.id } } });
    expect((await client.listPayments({ limit: 100 }, test)).data.map((p) => p.id)).toContain(payment!.id);
    const started = await client.startCheckoutSession({ id: payment!.id, account }, test);
    expect(started.payment!.startedAt).toBeGreaterThan(0n);
    const reached = await client.markProviderReached({ id: payment!.id, provider: 'cardrail' }, test);
    expect(reached.updated!.status).toBe('pending');
    const held = await admin.getOverview({ days: 1 }, test);
    expect(held.held.every((p) => p.status === 'held')).toBe(true);
    const link = await admin.createPaymentLink(
      { amount: '5.00', currency: 'USD', description: 'Invoice', customerName: 'Bo', account },
      test,
    );
    expect(link.payment).toMatchObject({ source: 'payment_link', customerName: 'Bo', trackingUrl: expect.stringMatching(/\/track\//) });
    expect((await admin.getPaymentLink({ id: link.payment!.id }, test)).payment).toEqual(link.payment);
    expect((await admin.listPaymentLinks({ limit: 10 }, test)).payments.map((p) => p.id)).toContain(link.payment!.id);
    const canceled = await admin.cancelPaymentLink({ id: link.payment!.id }, test);
    expect(canceled.payment).toMatchObject({ id: link.payment!.id, status: 'expired' });
  });
});

/** An event's payment (the JSON the consumer received) as the message. */
const fromEvent = (payment: object) => fromJson(PaymentSchema, payment as unknown as JsonObject);
