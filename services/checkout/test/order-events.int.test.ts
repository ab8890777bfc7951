// Risk covered: the customers context building customers from events that are missing, out of order,
// or carrying the wrong details; and an erased buyer's email surviving in checkout.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { connectNats, consumeDurable, prefixedSubject, streamName, type DurableConsumer, type NatsConnection } from '@hc/events';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { sessionEventsFilter } from '../src/adapters/checkout-stream.ts';
import type { SessionCreatedEvent, SessionEvent, SessionStartedEvent } from '../src/domain/session-events.ts';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { CUSTOMER_ERASED_SUBJECT } from '@hc/events/contracts';

const logger = createLogger('order-events-test', { level: 'silent' });
const test: CallContext = { accountId: 'acct_O', livemode: false, requestId: 'req_o' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
let nats: NatsConnection;
let consumer: DurableConsumer;
const events: { msgId: string; event: SessionEvent }[] = [];

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'orders' });
  client = createServiceClient(CheckoutService, stack.checkout.address);
  nats = await connectNats(stack.natsUrl, 'order-events-test');
  consumer = await consumeDurable({
    nats,
    stream: stack.stream.name,
    durable: 'order_events_test',
    filterSubject: sessionEventsFilter(stack.natsPrefix),
    logger,
    handle: async (message) => {
      events.push({ msgId: message.msgId, event: message.data as SessionEvent });
    },
  });
});

afterAll(async () => {
  await consumer.stop();
  await nats.drain();
  client.close();
  await stack.stop();
});

async function eventsOf(sessionId: string, count: number): Promise<{ msgId: string; event: SessionEvent }[]> {
  const deadline = Date.now() + 5000;
  const of = () => events.filter(({ event }) => (event.type === 'session.created' ? event.session.id : event.sessionId) === sessionId);
  while (of().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return of();
}

describe('session.created', () => {
  it('carries the email and the customer details, keyed by the session id', async () => {
    const { payment } = await client.createCheckoutSession(
      {
        amount: '25.00',
        currency: 'EUR',
        description: 'Scarf',
        account,
        customer: {
          email: 'Ada@Example.com',
          name: 'Ada Lovelace',
          billingAddress: { line1: '12 St James Square', city: 'London', country: 'gb' },
          storeAccount: { platform: 'shopify', storeId: 'shop-42', storeName: 'Ada Shop', customerId: '8812' },
        },
      },
      test,
    );
    expect(payment!.customerEmail).toBe('ada@example.com');
    const [created] = await eventsOf(payment!.id, 1);
    expect(created!.msgId).toBe(`${payment!.id}.session.created`);
    const event = created!.event as SessionCreatedEvent;
    expect(event.occurredAt).toBe(Number(payment!.createdAt));
    expect(event).toEqual({
      id: `${payment!.id}.session.created`,
      type: 'session.created',
      occurredAt: event.session.createdAt,
      accountId: 'acct_O',
      livemode: false,
      session: {
        id: payment!.id,
        amount: '25.00',
        currency: 'EUR',
        status: 'open',
        createdAt: event.occurredAt,
        customerEmail: 'ada@example.com',
      },
      customer: {
        name: 'Ada Lovelace',
        phone: null,
        shippingAddress: null,
        billingAddress: {
          name: null,
          line1: '12 St James Square',
          line2: null,
          city: 'London',
          region: null,
          postalCode: null,
          country: 'GB',
        },
        storeAccount: { platform: 'shopify', storeId: 'shop-42', storeName: 'Ada Shop', customerId: '8812' },
      },
    });
  });

  it('is not written when the create is refused', async () => {
    const before = events.length;
    await expect(
      client.createCheckoutSession(
        { amount: '25.00', currency: 'EUR', description: 'Scarf', account, customer: { phone: 'call me' } },
        test,
      ),
    ).rejects.toMatchObject({ code: 'invalid_customer', field: 'customer.phone' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.length).toBe(before);
  });
});

describe('session.started', () => {
  it('is published at the first start and at each start with another email, with a rising revision', async () => {
    const { payment } = await client.createCheckoutSession({ amount: '10.00', currency: 'USD', description: 'Mug', account }, test);
    const id = payment!.id;
    await client.startCheckoutSession({ id, customerEmail: 'first@example.com', account }, test);
    await client.startCheckoutSession({ id, customerEmail: 'FIRST@example.com', account }, test); // same email: nothing
    await client.startCheckoutSession({ id, customerEmail: 'second@example.com', account }, test);
    const started = (await eventsOf(id, 3)).slice(1).map(({ msgId, event }) => ({ msgId, ...(event as SessionStartedEvent) }));
    expect(started.map(({ msgId, customerEmail, revision }) => ({ msgId, customerEmail, revision }))).toEqual([
      { msgId: `${id}.session.started.1`, customerEmail: 'first@example.com', revision: 1 },
      { msgId: `${id}.session.started.2`, customerEmail: 'second@example.com', revision: 2 },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await eventsOf(id, 0)).toHaveLength(3);
  });
});

describe(CUSTOMER_ERASED_SUBJECT, () => {
  it('removes the email from the listed payments of that account and mode only, up to the revision it names', async () => {
    const create = (ctx: CallContext) =>
      client.createCheckoutSession(
        { amount: '10.00', currency: 'USD', description: 'Mug', customerEmail: 'erase.me@example.com', account },
        ctx,
      );
    const mine = (await create(test)).payment!.id;
    const kept = (await create(test)).payment!.id;
    // Restarted with another buyer's email (revision 2) after the customers context listed it at revision 1.
    const restarted = (await create(test)).payment!.id;
    await client.startCheckoutSession({ id: restarted, account }, test);
    await client.startCheckoutSession({ id: restarted, customerEmail: 'someone.else@example.com', account }, test);
    const live: CallContext = { ...test, livemode: true };
    const otherMode = (await create(live)).payment!.id;

    const subject = prefixedSubject(stack.natsPrefix, CUSTOMER_ERASED_SUBJECT);
    const msgId = 'cus_erased.erased';
    const event = {
      id: msgId,
      type: 'customer.erased',
      occurredAt: Date.now(),
      accountId: 'acct_O',
      livemode: false,
      customerId: 'cus_erased',
      paymentIds: [mine, otherMode, restarted],
      emailRevisions: { [mine]: 0, [otherMode]: 0, [restarted]: 1 },
    };
    const h = headers();
    h.set('Nats-Msg-Id', msgId);
    await jetstream(nats).publish(subject, JSON.stringify(event), {
      headers: h,
      expect: { streamName: streamName(stack.natsPrefix, 'customers') },
    });

    const emailOf = async (id: string, ctx: CallContext) => (await client.getCheckoutSession({ id }, ctx)).payment!.customerEmail ?? null;
    const deadline = Date.now() + 5000;
    while ((await emailOf(mine, test)) !== null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await emailOf(mine, test)).toBeNull();
    expect(await emailOf(kept, test)).toBe('erase.me@example.com');
    expect(await emailOf(restarted, test)).toBe('someone.else@example.com');
    // The erasure names a Test customer: a Live payment with that id is someone else's data.
    expect(await emailOf(otherMode, live)).toBe('erase.me@example.com');
  });

  it('never removes the email of a buyer who restarted the payment while the erasure ran', async () => {
    const sessions = stack.checkout.deps.payments;
    for (let round = 0; round < 30; round += 1) {
      const { payment } = await client.createCheckoutSession(
        { amount: '10.00', currency: 'USD', description: 'Mug', customerEmail: 'erase.me@example.com', account },
        test,
      );
      const id = payment!.id;
      await client.startCheckoutSession({ id, account }, test);
      // The customers context listed the payment at revision 1 (its first buyer). A second buyer's
      // restart (revision 2) races the erasure of the first, started a moment apart in either order:
      // whichever commits first, the second buyer's email stays.
      await new Promise((resolve) => setTimeout(resolve, round % 6));
      const erasure = sessions.eraseCustomerEmails(
        { accountId: test.accountId, livemode: false },
        [id],
        { [id]: 1 },
        'order-events-test',
        `cus_race_${round}.erased`,
      );
      const restart = client.startCheckoutSession({ id, customerEmail: `second.${round}@example.com`, account }, test);
      await Promise.all([erasure, restart]);
      expect((await client.getCheckoutSession({ id }, test)).payment!.customerEmail).toBe(`second.${round}@example.com`);
    }
  });
});
