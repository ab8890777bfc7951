// Risk covered: merchants missing, doubling or misreading payment webhooks — real checkout and
// settlement services publish real payment events on JetStream; the webhooks service turns them into
// signed deliveries to a real HTTP(S) receiver that verifies them with the standardwebhooks library.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connectNats, prefixedSubject, type NatsConnection } from '@hc/events';
import { applyVerdict, expireDuePayments } from '@hc/checkout';
import { startCheckoutStack, type CheckoutStack } from '@hc/checkout/testing';
import { createServiceClient, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { systemResolver, type HostResolver } from '../src/adapters/target-resolver.ts';
import { WebhookReceiver, type ReceivedDelivery } from './support/receiver.ts';
import { selfSignedCertificate } from './support/tls.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';
import { CUSTOMER_ERASED_SUBJECT } from '@hc/events/contracts';
import { unixSeconds } from '@hc/conversions';

const logger = createLogger('webhooks-test', { level: 'silent' });
const testA = testScope('acct_A');
const liveA = testScope('acct_A', true);
const testB = testScope('acct_B');
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };
// The Live receiver speaks https (Live endpoints must); this name resolves to it.
const LIVE_HOST = 'hooks.webhooks.test';
const resolver: HostResolver = async (host) => (host === LIVE_HOST ? [{ address: '127.0.0.1', family: 4 }] : systemResolver(host));

let stack: CheckoutStack;
let checkout: ServiceClient<typeof CheckoutService>;
let webhooks: WebhooksStack;
let receiver: WebhookReceiver;
let liveReceiver: WebhookReceiver;
let nats: NatsConnection;
const secrets: Record<'aTest' | 'aLive' | 'bTest', string> = { aTest: '', aLive: '', bTest: '' };
const endpointIds: Record<'aTest' | 'aLive' | 'bTest', string> = { aTest: '', aLive: '', bTest: '' };

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'webhooks' });
  checkout = createServiceClient(CheckoutService, stack.checkout.address);
  const tls = selfSignedCertificate(LIVE_HOST);
  receiver = await new WebhookReceiver().start();
  liveReceiver = await new WebhookReceiver(tls).start(LIVE_HOST);
  webhooks = await startWebhooksStack(logger, stack.natsPrefix, { WEBHOOKS_SECRET_OVERLAP: '2s' }, { resolver, ca: tls.cert });
  nats = await connectNats(stack.natsUrl, 'webhooks-test');
  const add = async (key: keyof typeof secrets, ctx: typeof testA, url: string): Promise<void> => {
    const created = await webhooks.client.createEndpoint({ url, description: key }, ctx);
    secrets[key] = created.secret;
    endpointIds[key] = created.endpoint!.id;
  };
  await add('aTest', testA, receiver.url('/a-test'));
  await add('aLive', liveA, liveReceiver.url('/a-live'));
  await add('bTest', testB, receiver.url('/b-test'));
  receiver.trust(secrets.aTest);
  receiver.trust(secrets.bTest);
  liveReceiver.trust(secrets.aLive);
});

afterAll(async () => {
  await nats.drain();
  checkout.close();
  await webhooks.stop();
  await stack.stop();
  await receiver.stop();
  await liveReceiver.stop();
});

const paymentDeliveries = (r: WebhookReceiver, path: string, paymentId: string): ReceivedDelivery[] =>
  r.at(path).filter((d) => d.body.data.payment?.['id'] === paymentId);

/** The types delivered for a payment once `count` distinct events arrived, in the order the events were made. */
async function deliveredTypes(paymentId: string, count: number, path = '/a-test', r = receiver): Promise<string[]> {
  await r.waitFor(() => new Set(paymentDeliveries(r, path, paymentId).map((d) => d.body.id)).size >= count);
  const byId = new Map(paymentDeliveries(r, path, paymentId).map((d) => [d.body.id, d.body.type]));
  // Deliveries run in parallel and events are stored by parallel pulls, so both may be out of order (as
  // the spec warns); the events' own time (the checkout change, in ms) gives the sequence.
  const rows = await webhooks.prisma.webhookEvent.findMany({
    where: { paymentId },
    orderBy: [{ created: 'asc' }, { seq: 'asc' }],
    select: { id: true },
  });
  expect(new Set(rows.map((r) => r.id))).toEqual(new Set(byId.keys()));
  return rows.map((row) => byId.get(row.id)!);
}

async function startedPayment(ctx = testA, extra: { customerEmail?: string; successUrl?: string } = {}): Promise<string> {
  const { payment } = await checkout.createCheckoutSession(
    { amount: '40.00', currency: 'EUR', description: 'Lamp', customerEmail: 'eve@example.com', account, ...extra },
    ctx,
  );
  await checkout.startCheckoutSession({ id: payment!.id, account }, ctx);
  return payment!.id;
}

describe('typical sequences', () => {
  it('normal payment: payment.started, payment.paid — signed, in the spec shape', async () => {
    const successUrl = 'https://shop.example.com/thanks/{PAYMENT_ID}?ref={REFERENCE}';
    const id = await startedPayment(testA, { successUrl });
    await checkout.simulatePayment({ id, outcome: 'paid' }, testA);
    expect(await deliveredTypes(id, 2)).toEqual(['payment.started', 'payment.paid']);

    const paid = paymentDeliveries(receiver, '/a-test', id).find((d) => d.body.type === 'payment.paid')!;
    expect(paid.verifiedBy).toEqual([secrets.aTest]);
    expect(paid.headers['webhook-id']).toBe(paid.body.id);
    expect(paid.body.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(Math.abs(Number(paid.headers['webhook-timestamp']) - unixSeconds(new Date()))).toBeLessThan(30);
    expect(paid.headers['content-type']).toBe('application/json');
    expect(Object.keys(paid.body)).toEqual(['id', 'type', 'created', 'livemode', 'data']);
    expect(paid.body.livemode).toBe(false);
    const payment = paid.body.data.payment!;
    expect(payment).toMatchObject({ id, mode: 'test', source: 'api', status: 'paid', amount: '40.00', currency: 'EUR', feeBps: 150 });
    // As set, placeholders left in: percent-encoded in the path, literal in the query.
    expect(payment['successUrl']).toBe('https://shop.example.com/thanks/%7BPAYMENT_ID%7D?ref={REFERENCE}');
    // Timestamps inside the payment are milliseconds; the event's own `created` is seconds.
    expect(payment['paidAt']).toBeGreaterThan(1e12);
    expect(payment['createdAt']).toBeGreaterThan(1e12);
    expect(paid.body.created).toBeLessThan(1e10);
    expect(paid.body.created).toBe(Math.floor((payment['paidAt'] as number) / 1000));
    expect(payment['customerEmail']).toBe('eve@example.com');
  });

  it('accepted underpayment: payment.started, payment.held, payment.paid', async () => {
    const id = await startedPayment();
    await checkout.simulatePayment({ id, outcome: 'underpaid' }, testA);
    await checkout.acceptHeldPayment({ id }, testA);
    expect(await deliveredTypes(id, 3)).toEqual(['payment.started', 'payment.held', 'payment.paid']);
  });

  it('declined test payment: payment.started, payment.failed', async () => {
    const id = await startedPayment();
    await checkout.simulatePayment({ id, outcome: 'failed' }, testA);
    expect(await deliveredTypes(id, 2)).toEqual(['payment.started', 'payment.failed']);
  });
});

describe('mode and account separation', () => {
  it('a Live payment reaches only the Live endpoint (https), and nothing crosses accounts', async () => {
    const live = await startedPayment(liveA);
    const ofB = await startedPayment(testB);
    await liveReceiver.waitFor(() => paymentDeliveries(liveReceiver, '/a-live', live).length >= 1);
    await receiver.waitFor(() => paymentDeliveries(receiver, '/b-test', ofB).length >= 1);
    const [started] = paymentDeliveries(liveReceiver, '/a-live', live);
    expect(started!.body).toMatchObject({ type: 'payment.started', livemode: true, data: { payment: { id: live, mode: 'live' } } });
    expect(started!.verifiedBy).toEqual([secrets.aLive]);
    // Let anything misrouted arrive before judging.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('/a-test').every((d) => !d.body.livemode && d.body.data.payment?.['id'] !== ofB)).toBe(true);
    expect(liveReceiver.at('/a-live').every((d) => d.body.livemode)).toBe(true);
    expect(receiver.at('/b-test').every((d) => d.body.data.payment?.['id'] === ofB)).toBe(true);
    await expect(webhooks.client.getEndpoint({ id: endpointIds.aTest }, liveA)).rejects.toMatchObject({ code: 'not_found' });
    await expect(webhooks.client.getEndpoint({ id: endpointIds.aTest }, testB)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('log and controls', () => {
  it('lists events newest first in pages and every attempt with status, latency and the exact body', async () => {
    const id = await startedPayment();
    await checkout.simulatePayment({ id, outcome: 'paid' }, testA);
    await deliveredTypes(id, 2);
    const first = await webhooks.client.listEvents({ limit: 1 }, testA);
    expect(first.events[0]!.paymentId).toBe(id);
    expect(first.events[0]!.type).toBe('payment.paid');
    expect(first.hasMore).toBe(true);
    const second = await webhooks.client.listEvents({ limit: 1, startingAfter: first.events[0]!.id }, testA);
    expect(second.events[0]).toMatchObject({ paymentId: id, type: 'payment.started' });
    await expect(webhooks.client.listEvents({ limit: 1, startingAfter: first.events[0]!.id }, testB)).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    // The dashboard's payment page: only this payment's events, and none through another account.
    const other = await startedPayment();
    await deliveredTypes(other, 1);
    const ofPayment = await webhooks.client.listEvents({ limit: 100, paymentId: id }, testA);
    expect(ofPayment.events.map((e) => [e.paymentId, e.type])).toEqual([
      [id, 'payment.paid'],
      [id, 'payment.started'],
    ]);
    expect((await webhooks.client.listEvents({ limit: 100, paymentId: id }, testB)).events).toEqual([]);

    const eventId = first.events[0]!.id;
    const { attempts } = await webhooks.client.listDeliveryAttempts({ eventId }, testA);
    expect(attempts).toHaveLength(1);
    const received = receiver.at('/a-test').find((d) => d.body.id === eventId)!;
    expect(attempts[0]).toMatchObject({
      endpointId: endpointIds.aTest,
      attemptNumber: 1,
      statusCode: 200,
      succeeded: true,
      responseSnippet: 'ok',
    });
    expect(attempts[0]!.requestBody).toBe(received.rawBody);
    expect(attempts[0]!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('keeps events readable over the public API for 30 days: older ones leave its lists and reads, not the log', async () => {
    const THIRTY_DAYS = 30n * 24n * 60n * 60n;
    const id = await startedPayment();
    await deliveredTypes(id, 1);
    const listed = async (maxAgeSeconds: bigint) =>
      (await webhooks.client.listEvents({ limit: 100, type: 'payment.started', maxAgeSeconds }, testA)).events.filter(
        (e) => e.paymentId === id,
      );
    const [event] = await listed(THIRTY_DAYS);
    expect(event).toMatchObject({ type: 'payment.started' });
    await webhooks.prisma.$executeRaw`UPDATE webhook_events SET created = now() - interval '31 days' WHERE id = ${event!.id}`;
    expect(await listed(THIRTY_DAYS)).toEqual([]);
    expect((await listed(0n)).map((e) => e.id)).toEqual([event!.id]);
    await expect(webhooks.client.getEvent({ id: event!.id, maxAgeSeconds: THIRTY_DAYS }, testA)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await webhooks.client.getEvent({ id: event!.id, maxAgeSeconds: 0n }, testA)).event?.body).toBe(event!.body);
    await expect(webhooks.client.getEvent({ id: event!.id, maxAgeSeconds: 0n }, testB)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('resends an event with the same evt_ id, to all matching endpoints or to one', async () => {
    const id = await startedPayment();
    await deliveredTypes(id, 1);
    const [original] = paymentDeliveries(receiver, '/a-test', id);
    const all = await webhooks.client.resendEvent({ eventId: original!.body.id }, testA);
    expect(all.endpointIds).toEqual([endpointIds.aTest]);
    const one = await webhooks.client.resendEvent({ eventId: original!.body.id, endpointId: endpointIds.aTest }, testA);
    expect(one.endpointIds).toEqual([endpointIds.aTest]);
    await receiver.waitFor(() => paymentDeliveries(receiver, '/a-test', id).length >= 3);
    const copies = paymentDeliveries(receiver, '/a-test', id);
    expect(new Set(copies.map((d) => d.body.id))).toEqual(new Set([original!.body.id]));
    expect(new Set(copies.map((d) => d.rawBody)).size).toBe(1);
    expect(copies.every((d) => d.verifiedBy.length === 1)).toBe(true);
    await expect(webhooks.client.resendEvent({ eventId: original!.body.id }, testB)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('pings Test and Live endpoints with data.payment null and a new evt_ id each time', async () => {
    const first = await webhooks.client.sendPing({ endpointId: endpointIds.aTest }, testA);
    const second = await webhooks.client.sendPing({ endpointId: endpointIds.aTest }, testA);
    const live = await webhooks.client.sendPing({ endpointId: endpointIds.aLive }, liveA);
    expect(new Set([first.event!.id, second.event!.id, live.event!.id]).size).toBe(3);
    await receiver.waitFor((all) => all.some((d) => d.body.id === second.event!.id) && all.some((d) => d.body.id === first.event!.id));
    await liveReceiver.waitFor((all) => all.some((d) => d.body.id === live.event!.id));
    const ping = receiver.deliveries.find((d) => d.body.id === first.event!.id)!;
    expect(ping.body).toEqual({ id: first.event!.id, type: 'ping', created: expect.any(Number), livemode: false, data: { payment: null } });
    expect(ping.verifiedBy).toEqual([secrets.aTest]);
    expect(liveReceiver.deliveries.find((d) => d.body.id === live.event!.id)!.body.livemode).toBe(true);
  });

  it('signs with both secrets during the rotation overlap, then with the new one only', async () => {
    const { endpoint } = await webhooks.client.createEndpoint({ url: receiver.url('/rotating'), enabledEvents: ['payment.paid'] }, testA);
    const created = await webhooks.client.getEndpoint({ id: endpoint!.id }, testA);
    expect(created.endpoint!.enabledEvents).toEqual(['payment.paid']);
    const old = (await webhooks.client.rotateEndpointSecret({ id: endpoint!.id }, testA)).secret;
    // `old` is now the previous secret; rotate again so the first one is the one overlapping.
    const rotated = await webhooks.client.rotateEndpointSecret({ id: endpoint!.id }, testA);
    receiver.trust(old);
    receiver.trust(rotated.secret);
    const during = await webhooks.client.sendPing({ endpointId: endpoint!.id }, testA);
    const [inWindow] = await receiver
      .waitFor((all) => all.some((d) => d.body.id === during.event!.id))
      .then((all) => all.filter((d) => d.body.id === during.event!.id));
    expect(inWindow!.verifiedBy).toEqual(expect.arrayContaining([old, rotated.secret]));
    expect(String(inWindow!.headers['webhook-signature']).split(' ').length).toBeGreaterThanOrEqual(2);
    // WEBHOOKS_SECRET_OVERLAP is 2 s in this file.
    await new Promise((resolve) => setTimeout(resolve, Number(rotated.previousSecretExpiresAt) * 1000 - Date.now() + 1100));
    const after = await webhooks.client.sendPing({ endpointId: endpoint!.id }, testA);
    const [late] = await receiver
      .waitFor((all) => all.some((d) => d.body.id === after.event!.id))
      .then((all) => all.filter((d) => d.body.id === after.event!.id));
    expect(late!.verifiedBy).toEqual([rotated.secret]);
    expect(String(late!.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('manages endpoints: update, disable, enable, delete', async () => {
    const { endpoint } = await webhooks.client.createEndpoint({ url: receiver.url('/managed') }, testA);
    expect(endpoint).toMatchObject({ status: 'enabled', enabledEvents: ['*'], livemode: false });
    const updated = await webhooks.client.updateEndpoint(
      { id: endpoint!.id, description: 'orders', enabledEvents: ['payment.paid', 'payment.held'], replaceEnabledEvents: true },
      testA,
    );
    expect(updated.endpoint).toMatchObject({ description: 'orders', enabledEvents: ['payment.paid', 'payment.held'], url: endpoint!.url });
    await expect(
      webhooks.client.updateEndpoint({ id: endpoint!.id, enabledEvents: ['payment.nope'], replaceEnabledEvents: true }, testA),
    ).rejects.toMatchObject({ code: 'invalid_event_types', field: 'enabled_events' });
    const disabled = await webhooks.client.disableEndpoint({ id: endpoint!.id }, testA);
    expect(disabled.endpoint).toMatchObject({ status: 'disabled', disabledReason: 'operator' });
    await expect(webhooks.client.sendPing({ endpointId: endpoint!.id }, testA)).rejects.toMatchObject({ code: 'endpoint_disabled' });
    expect((await webhooks.client.enableEndpoint({ id: endpoint!.id }, testA)).endpoint).toMatchObject({ status: 'enabled' });
    await webhooks.client.deleteEndpoint({ id: endpoint!.id }, testA);
    await expect(webhooks.client.getEndpoint({ id: endpoint!.id }, testA)).rejects.toMatchObject({ code: 'not_found' });
    expect((await webhooks.client.listEndpoints({}, testA)).endpoints.map((e) => e.id)).not.toContain(endpoint!.id);
  });
});

describe('customer erasure', () => {
  it('scrubs the logged bodies of the listed payments and leaves later events of them without the details', async () => {
    const erased = await startedPayment(testA, { customerEmail: 'ada@example.com' });
    await checkout.simulatePayment({ id: erased, outcome: 'paid' }, testA);
    const otherAccount = await startedPayment(testB, { customerEmail: 'bob@example.com' });
    await deliveredTypes(erased, 2);
    await receiver.waitFor(() => paymentDeliveries(receiver, '/b-test', otherAccount).length >= 1);
    expect(paymentDeliveries(receiver, '/a-test', erased)[0]!.body.data.payment!['customerEmail']).toBe('ada@example.com');

    // A real erasure event, as the customers context publishes it — naming B's payment too, which
    // is not A's to erase.
    const subject = prefixedSubject(stack.natsPrefix, CUSTOMER_ERASED_SUBJECT);
    const erasure = {
      id: 'cus_1.erased',
      type: 'customer.erased',
      occurredAt: Date.now(),
      accountId: 'acct_A',
      livemode: false,
      customerId: 'cus_1',
      paymentIds: [erased, otherAccount],
    };
    await jetstream(nats).publish(subject, JSON.stringify(erasure), { msgID: erasure.id });

    const bodiesOf = async (paymentId: string): Promise<string[]> => {
      const events = await webhooks.prisma.webhookEvent.findMany({ where: { paymentId }, include: { attempts: true } });
      return events.flatMap((e) => [JSON.stringify(e.body), ...e.attempts.map((a) => a.requestBody)]);
    };
    const deadline = Date.now() + 10_000;
    while ((await bodiesOf(erased)).some((b) => b.includes('ada@example.com')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const scrubbed = await bodiesOf(erased);
    expect(scrubbed.length).toBeGreaterThanOrEqual(4);
    expect(scrubbed.every((b) => !b.includes('ada@example.com') && b.includes('"customerEmail":null'))).toBe(true);
    expect((await bodiesOf(otherAccount)).every((b) => b.includes('bob@example.com'))).toBe(true);

    // Settlement details arriving late make a new event of the erased payment: it goes out without the email.
    await applyVerdict(stack.checkout.deps, testA, {
      id: `vrd_details_${erased}`,
      paymentId: erased,
      kind: 'details',
      holdReason: null,
      holdAcceptable: false,
      settlement: {
        coin: 'polygon_usdc',
        valueCoin: '41.904000',
        merchantReceived: '41.275440',
        txidIn: '0xabc',
        txidOut: '0xdef',
        payoutWallet: null,
      },
    });
    expect(await deliveredTypes(erased, 3)).toEqual(['payment.started', 'payment.paid', 'payment.updated']);
    const updated = paymentDeliveries(receiver, '/a-test', erased).find((d) => d.body.type === 'payment.updated')!;
    expect(updated.body.data.payment).toMatchObject({ customerEmail: null, customerName: null, txidIn: '0xabc' });
    expect(updated.verifiedBy).toEqual([secrets.aTest]);
  });
});

describe('expiry (drives the checkout clock: keep last)', () => {
  it('never pays: started, expired; never started: expired; late payment: started, expired, paid', async () => {
    const neverPays = await startedPayment();
    const late = await startedPayment();
    const { payment } = await checkout.createCheckoutSession({ amount: '7.00', currency: 'USD', description: 'Never started' }, testA);
    stack.clock.advance(24 * 60 * 60 * 1000);
    expect(await expireDuePayments(stack.checkout.deps)).toBeGreaterThanOrEqual(3);
    await checkout.simulatePayment({ id: late, outcome: 'paid' }, testA);
    expect(await deliveredTypes(neverPays, 2)).toEqual(['payment.started', 'payment.expired']);
    expect(await deliveredTypes(payment!.id, 1)).toEqual(['payment.expired']);
    expect(await deliveredTypes(late, 3)).toEqual(['payment.started', 'payment.expired', 'payment.paid']);
  });

  it('made exactly one webhook event per source event, never a session.* one', async () => {
    const events = await webhooks.prisma.webhookEvent.findMany({ where: { sourceMsgId: { not: null } } });
    expect(new Set(events.map((e) => e.sourceMsgId)).size).toBe(events.length);
    expect(events.every((e) => e.type.startsWith('payment.'))).toBe(true);
  });
});
