// Risk covered: calls and events describing one payment in two shapes that drift apart (ADR 0102).
// Over real gRPC, PostgreSQL and JetStream: the Payment a call answers is the Payment the event
// published for the same change, field for field; the deprecated CheckoutSession half still says
// the same for readers of the previous release during a rolling upgrade.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fromJson, toJson, type JsonObject } from '@bufbuild/protobuf';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, SessionStatus } from '@hc/proto/checkout/v1';
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

describe('a caller that reads only the Payment (payment_only, ADR 0105)', () => {
  it('gets no deprecated copy, alone or in a grouped call, and a caller that does not say so still gets both', async () => {
    const { payment } = await client.createCheckoutSession(create, test);
    const id = payment!.id;
    const alone = await client.getCheckoutSession({ id, paymentOnly: true }, test);
    expect(alone.session).toBeUndefined();
    expect(alone.payment).toEqual(payment);
    const grouped = await client.getCheckoutSessions({ calls: [{ id, paymentOnly: true }, { id }], requestIds: ['req_a', 'req_b'] }, test);
    const [onlyPayment, both] = grouped.outcomes.map((outcome) => (outcome.outcome.case === 'answer' ? outcome.outcome.value : undefined));
    expect(onlyPayment?.session).toBeUndefined();
    expect(both?.session?.id).toBe(id);
    const page = await client.listPayments({ limit: 100, paymentOnly: true }, test);
    expect(page.payments).toEqual([]);
    expect(page.data.map((p) => p.id)).toContain(id);
    expect((await client.listPayments({ limit: 100 }, test)).payments.map((p) => p.id)).toContain(id);
    expect((await client.getCheckoutSession({ id }, test)).session?.id).toBe(id);
  });
});

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

  it('every answer that carried a CheckoutSession carries the Payment too, and both agree', async () => {
    const { payment, session } = await client.createCheckoutSession(create, test);
    expect(payment).toMatchObject({ id: session!.id, status: 'open', amount: '12.50', reference: 'ORD-1', url: session!.url });
    expect(payment!.createdAt / 1000n).toBe(session!.created);
    expect((await client.getCheckoutSession({ id: session!.id }, test)).payment).toEqual(payment);
    const list = await client.listPayments({ limit: 100 }, test);
    expect(list.data.map((p) => p.id)).toEqual(list.payments.map((p) => p.id));
    const reached = await client
      .startCheckoutSession({ id: session!.id, account }, test)
      .then(() => client.markProviderReached({ id: session!.id, provider: 'cardrail' }, test));
    expect([reached.updated!.status, reached.payment!.status]).toEqual(['pending', SessionStatus.PENDING]);
    const link = await admin.createPaymentLink(
      { amount: '5.00', currency: 'USD', description: 'Invoice', customerName: 'Bo', account },
      test,
    );
    expect(link.payment).toMatchObject({ id: link.link!.payment!.id, source: 'payment_link', customerName: 'Bo' });
    expect(link.payment!.trackingUrl).toBe(link.link!.trackingUrl);
    const links = await admin.listPaymentLinks({ limit: 10 }, test);
    expect(links.payments.map((p) => p.id)).toEqual(links.links.map((l) => l.payment!.id));
  });
});

/** An event's payment (the JSON the consumer received) as the message. */
const fromEvent = (payment: object) => fromJson(PaymentSchema, payment as unknown as JsonObject);
