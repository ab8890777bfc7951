// Risk covered: a payment's events on JetStream come in the wrong order, twice, or not at all for the spec's typical sequences (normal, declined, underpaid, never started, never paid, late payment), or carry a snapshot whose status, names (camelCase) or timestamps (milliseconds) do not match the change; a repeated start or simulate publishes a second event.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expireDuePayments } from '@hc/checkout';
import { connectNats, type NatsConnection } from '@hc/events';
import { jetstream, type ConsumerMessages } from '@nats-io/jetstream';
import { bodyOf, createSession, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startPlatform, WALLET, type Platform, type TestMerchant } from './platform-harness.ts';

/** An event as checkout publishes it (services/checkout/src/domain/payment-events.ts). */
interface PublishedEvent {
  id: string;
  type: string;
  occurredAt: number;
  accountId: string;
  livemode: boolean;
  payment: Json;
}

interface Received {
  subject: string;
  msgId: string | undefined;
  event: PublishedEvent;
}

let platform: Platform;
let merchant: TestMerchant;
let nats: NatsConnection;
let messages: ConsumerMessages | undefined;
let reading: Promise<void> | undefined;
const received: Received[] = [];

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
  nats = await connectNats(platform.stack.natsUrl, 'test');
  // An ordered consumer over this file's own stream, payment events only (it also carries checkout.session.*).
  const consumer = await jetstream(nats).consumers.get(platform.stack.stream.name, { filter_subjects: platform.stack.paymentEvents });
  const stream = await consumer.consume();
  messages = stream;
  reading = (async () => {
    for await (const message of stream) {
      received.push({ subject: message.subject, msgId: message.headers?.get('Nats-Msg-Id'), event: message.json<PublishedEvent>() });
    }
  })();
});
afterAll(async () => {
  await messages?.close();
  await reading;
  await nats.drain();
  await platform.stop();
});

const WITH_EMAIL: Json = { ...VALID_BODY, amount: '10.00', currency: 'USD', customer_email: 'buyer@example.com' };
const DAY_MS = 24 * 60 * 60 * 1000;
/** The webhook payment shape of the spec ("Webhook payment shape"), camelCase. */
const WEBHOOK_PAYMENT_FIELDS = [
  'id',
  'mode',
  'source',
  'checkoutId',
  'planLabel',
  'description',
  'reference',
  'customerEmail',
  'amount',
  'currency',
  'status',
  'provider',
  'providerName',
  'depositAddress',
  'payoutWallet',
  'feeBps',
  'valueCoin',
  'merchantReceived',
  'coin',
  'holdReason',
  'holdAcceptable',
  'txidIn',
  'txidOut',
  'metadata',
  'customerName',
  'memo',
  'trackingUrl',
  'canceledAt',
  'successUrl',
  'createdAt',
  'paidAt',
  'expiresAt',
  'url',
];
/** Fields of the event's snapshot beyond the webhook shape: the merchant's name, for receipts (ADR 0048). */
// The snapshot also carries what the receipt needs: the shop's name and the buyer's language, the
// merchant's choice and the page's the buyer started from (ADR 0089); and, since the one Payment
// message serves calls too (ADR 0102), the start, the cancel URL and the buyer's country.
const SNAPSHOT_EXTRA_FIELDS = ['merchantName', 'locale', 'pageLocale', 'startedAt', 'cancelUrl', 'country'];
/** The status a payment has in the snapshot of each event type. */
const STATUS_OF: Readonly<Record<string, string>> = {
  'payment.started': 'open',
  'payment.paid': 'paid',
  'payment.held': 'held',
  'payment.failed': 'failed',
  'payment.expired': 'expired',
};
/** The event a simulated outcome publishes. */
const EVENT_OF_OUTCOME: Readonly<Record<string, string>> = { paid: 'payment.paid', underpaid: 'payment.held', failed: 'payment.failed' };

const idOf = (object: Json): string => String(object['id']);
const nowMs = (): number => platform.clock.now().getTime();

/** A created Test session; its id and the checkout clock's time at creation (ms). */
async function created(key: string = merchant.testKey): Promise<{ id: string; createdMs: number }> {
  const createdMs = nowMs();
  return { id: idOf(await createSession(platform, key, WITH_EMAIL)), createdMs };
}

async function start(id: string, key: string = merchant.testKey, body: Json = {}): Promise<Json> {
  const response = await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

async function simulate(id: string, outcome: string): Promise<Json> {
  const response = await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome } });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

async function payment(id: string, key: string = merchant.testKey): Promise<Json> {
  const response = await platform.request('GET', `/v1/payments/${id}`, { key });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

const eventsOf = (paymentId: string): PublishedEvent[] =>
  received.filter((message) => message.event.payment['id'] === paymentId).map((message) => message.event);
const typesOf = (paymentId: string): string[] => eventsOf(paymentId).map((event) => event.type);

/** Waits (at most 5 s) until `paymentId` has at least `count` events on the stream. */
async function awaitEvents(paymentId: string, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (typesOf(paymentId).length < count) {
    if (Date.now() > deadline) throw new Error(`waited 5 s for ${count} events of ${paymentId}; got ${JSON.stringify(typesOf(paymentId))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Every event committed so far has reached the stream: the outbox relay publishes in commit order, so
 * once a newer payment's payment.started has arrived, nothing older is still on its way.
 */
async function allRelayed(): Promise<void> {
  const { id } = await created();
  await start(id);
  await awaitEvents(id, 1);
}

/** The envelope and snapshot of an event say what the spec and the change say. */
function expectWellFormed(event: PublishedEvent, createdMs: number): void {
  const message = received.find((candidate) => candidate.event.id === event.id);
  expect(message?.msgId).toBe(event.id);
  // The payment id ends the subject, so erasure can purge one payment's messages (ADR 0017).
  expect(message?.subject).toBe(`${platform.stack.natsPrefix}.checkout.${event.type}.${event.payment.id}`);
  expect(event).toMatchObject({ accountId: merchant.accountId, livemode: false });
  expect(Number.isSafeInteger(event.occurredAt)).toBe(true);
  const snapshot = event.payment;
  const keys = Object.keys(snapshot);
  expect(keys.filter((key) => !WEBHOOK_PAYMENT_FIELDS.includes(key) && !SNAPSHOT_EXTRA_FIELDS.includes(key))).toEqual([]);
  expect(keys.every((key) => /^[a-z][A-Za-z]*$/.test(key))).toBe(true);
  expect(snapshot).toMatchObject({
    mode: 'test',
    status: STATUS_OF[event.type],
    createdAt: createdMs,
    expiresAt: createdMs + DAY_MS,
    amount: '10.00',
    currency: 'USD',
    customerEmail: 'buyer@example.com',
  });
}

/** The snapshot's milliseconds are the API's seconds, to the second. */
async function expectSameTimesAsApi(event: PublishedEvent): Promise<void> {
  const object = await payment(String(event.payment['id']));
  expect(Math.floor(Number(event.payment['createdAt']) / 1000)).toBe(object['created']);
  expect(Math.floor(Number(event.payment['expiresAt']) / 1000)).toBe(object['expires_at']);
  expect(event.payment['url']).toBe(object['url']);
}

describe('typical sequences reachable in Test mode', () => {
  it('normal payment: payment.started, payment.paid', async () => {
    const { id, createdMs } = await created();
    platform.clock.advance(1_000);
    await start(id);
    const startedMs = nowMs();
    platform.clock.advance(2_000);
    const paid = await simulate(id, 'paid');
    const paidMs = nowMs();
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', 'payment.paid']);
    const [startedEvent, paidEvent] = eventsOf(id) as [PublishedEvent, PublishedEvent];
    for (const event of [startedEvent, paidEvent]) expectWellFormed(event, createdMs);
    expect(startedEvent.occurredAt).toBe(startedMs);
    expect(startedEvent.payment).toMatchObject({
      depositAddress: null,
      payoutWallet: WALLET,
      feeBps: 150,
      paidAt: null,
      valueCoin: null,
      merchantReceived: null,
      txidIn: null,
    });
    expect(paidEvent.occurredAt).toBe(paidMs);
    const settlement = paid['settlement'] as Json;
    expect(Object.keys(paidEvent.payment).sort()).toEqual([...WEBHOOK_PAYMENT_FIELDS, ...SNAPSHOT_EXTRA_FIELDS].sort());
    expect(paidEvent.payment).toMatchObject({
      paidAt: paidMs,
      coin: 'polygon_usdc',
      valueCoin: '9.700000',
      merchantReceived: '9.554500',
      txidIn: settlement['txid_in'],
      txidOut: settlement['txid_out'],
      payoutWallet: WALLET,
      holdReason: null,
    });
    expect(Math.floor(paidMs / 1000)).toBe(paid['paid_at']);
    await expectSameTimesAsApi(paidEvent);
  });

  it('declined test payment: payment.started, payment.failed', async () => {
    const { id, createdMs } = await created();
    await start(id);
    await simulate(id, 'failed');
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', 'payment.failed']);
    for (const event of eventsOf(id)) expectWellFormed(event, createdMs);
    expect(eventsOf(id)[1]?.payment).toMatchObject({ paidAt: null, valueCoin: null, txidIn: null });
  });

  it('underpayment: payment.started, payment.held', async () => {
    const { id, createdMs } = await created();
    await start(id);
    const held = await simulate(id, 'underpaid');
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', 'payment.held']);
    for (const event of eventsOf(id)) expectWellFormed(event, createdMs);
    expect(eventsOf(id)[1]?.payment).toMatchObject({
      holdReason: held['hold_reason'],
      holdAcceptable: true,
      valueCoin: '5.000000',
      merchantReceived: null,
      paidAt: null,
    });
  });
});

describe('a repeated request publishes no second event', () => {
  it('starting again (also with a new email) publishes no second payment.started', async () => {
    const { id } = await created();
    await start(id);
    platform.clock.advance(1_000);
    await start(id);
    await start(id, merchant.testKey, { customer_email: 'Second@Example.com', country: 'de' });
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started']);
  });

  it('two concurrent starts publish one payment.started', async () => {
    const { id } = await created();
    await Promise.all([start(id), start(id), start(id)]);
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started']);
  });

  it.each(['paid', 'underpaid', 'failed'])('simulating a finished payment again publishes nothing (first outcome %s)', async (first) => {
    const { id } = await created();
    await start(id);
    await simulate(id, first);
    for (const outcome of ['paid', 'underpaid', 'failed']) await simulate(id, outcome);
    const restart = await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} });
    expect(restart.status).toBe(409);
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', EVENT_OF_OUTCOME[first]]);
  });

  it('two concurrent simulates publish one outcome event', async () => {
    const { id } = await created();
    await start(id);
    const [one] = await Promise.all([simulate(id, 'paid'), simulate(id, 'failed'), simulate(id, 'paid')]);
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', one['status'] === 'paid' ? 'payment.paid' : 'payment.failed']);
  });

  it('publishes no event for a refused start or simulate', async () => {
    const { id } = await created();
    const refused = await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } });
    expect(refused.status).toBe(409);
    const noProviders = await platform.request('POST', `/v1/checkout_sessions/${id}/start`, {
      key: merchant.testKey,
      body: { country: 'KP' },
    });
    expect(noProviders.status).toBe(409);
    await allRelayed();
    expect(typesOf(id)).toEqual([]);
  });

  it('no event id is published twice', async () => {
    await allRelayed();
    const ids = received.map((message) => message.event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('a Live start', () => {
  it('publishes payment.started with livemode true, mode live and a deposit address', async () => {
    const createdMs = nowMs();
    const id = idOf(await createSession(platform, merchant.liveKey, WITH_EMAIL));
    await start(id, merchant.liveKey);
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started']);
    expect(eventsOf(id)[0]).toMatchObject({
      livemode: true,
      accountId: merchant.accountId,
      payment: {
        mode: 'live',
        status: 'open',
        createdAt: createdMs,
        depositAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        payoutWallet: WALLET,
      },
    });
  });
});

// These move the clock past every earlier payment's expiry, so they come last.
describe('expiry sequences', () => {
  it('buyer never pays: payment.started, payment.expired (marked on read)', async () => {
    const { id, createdMs } = await created();
    await start(id);
    platform.clock.advance(DAY_MS);
    const expiredMs = nowMs();
    expect((await payment(id))['status']).toBe('expired');
    expect((await payment(id))['status']).toBe('expired');
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', 'payment.expired']);
    for (const event of eventsOf(id)) expectWellFormed(event, createdMs);
    expect(eventsOf(id)[1]?.occurredAt).toBe(expiredMs);
  });

  it('late payment: payment.started, payment.expired, then payment.paid', async () => {
    const { id, createdMs } = await created();
    await start(id);
    platform.clock.advance(DAY_MS + 1_000);
    expect((await payment(id))['status']).toBe('expired');
    platform.clock.advance(30_000);
    await simulate(id, 'paid');
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', 'payment.expired', 'payment.paid']);
    for (const event of eventsOf(id)) expectWellFormed(event, createdMs);
    expect(eventsOf(id)[2]?.payment).toMatchObject({ status: 'paid', paidAt: nowMs(), valueCoin: '9.700000' });
  });

  it('late underpayment: payment.started, payment.expired, then payment.held', async () => {
    const { id, createdMs } = await created();
    await start(id);
    platform.clock.advance(DAY_MS);
    expect((await payment(id))['status']).toBe('expired');
    await simulate(id, 'underpaid');
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.started', 'payment.expired', 'payment.held']);
    for (const event of eventsOf(id)) expectWellFormed(event, createdMs);
  });

  it('buyer never started: payment.expired alone, from the sweeper, once', async () => {
    const { id, createdMs } = await created();
    platform.clock.advance(DAY_MS);
    const sweptMs = nowMs();
    expect(await expireDuePayments(platform.stack.checkout.deps)).toBeGreaterThanOrEqual(1);
    expect(await expireDuePayments(platform.stack.checkout.deps)).toBe(0);
    expect((await payment(id))['status']).toBe('expired');
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.expired']);
    const [expired] = eventsOf(id) as [PublishedEvent];
    expectWellFormed(expired, createdMs);
    expect(expired.occurredAt).toBe(sweptMs);
    expect(expired.payment).toMatchObject({ payoutWallet: null, depositAddress: null, feeBps: expect.any(Number) });
  });

  it('buyer never started: payment.expired alone when a read marks it', async () => {
    const { id, createdMs } = await created();
    platform.clock.advance(DAY_MS);
    expect((await payment(id))['status']).toBe('expired');
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.expired']);
    expectWellFormed(eventsOf(id)[0] as PublishedEvent, createdMs);
  });
  it('buyer never started: one payment.expired when a list read marks it, none for later reads', async () => {
    const { id, createdMs } = await created();
    platform.clock.advance(DAY_MS);
    const listed = await platform.request('GET', '/v1/payments?limit=1', { key: merchant.testKey });
    expect(listed.status).toBe(200);
    expect((await bodyOf(listed))['data']).toEqual([expect.objectContaining({ id, status: 'expired' })]);
    expect((await payment(id))['status']).toBe('expired');
    // The sweeper expires other due payments here, never this one a second time.
    await expireDuePayments(platform.stack.checkout.deps);
    await allRelayed();
    expect(typesOf(id)).toEqual(['payment.expired']);
    expectWellFormed(eventsOf(id)[0] as PublishedEvent, createdMs);
  });
});
