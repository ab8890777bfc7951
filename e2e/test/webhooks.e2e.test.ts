// Risk covered: a merchant who registered a Test endpoint not receiving, or not being able to verify,
// the webhooks of a payment made through the API; the operator CLI's webhook commands not working
// end to end; the success URL's placeholders misencoded; and an erased buyer's details surviving in
// the delivery log, the message bus or the logs.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import {
  bodyOf,
  createSession,
  eventually,
  everyRowOf,
  everyStreamMessage,
  startWebhookReceiver,
  VALID_BODY,
  type Json,
  type ReceivedWebhook,
  type WebhookReceiver,
} from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

type Delivery = ReceivedWebhook<{ id: string; type: string; created: number; livemode: boolean; data: { payment: Json | null } }>;

let platform: Platform;
let merchant: TestMerchant;
let receiver: WebhookReceiver<Delivery['event']>;
let receiverUrl: string;
let delivered: Delivery[];

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true, captureLogs: true });
  merchant = await platform.merchant();
  // The merchant's server: keeps the RAW body, as the merchant guide says (docs/webhooks.md).
  receiver = await startWebhookReceiver<Delivery['event']>();
  ({ url: receiverUrl, delivered } = receiver);
});
afterAll(async () => {
  receiver.close();
  await platform.stop();
});

/** A CLI command that must succeed; its JSON output. */
async function operator(...args: string[]): Promise<Json> {
  const { code, stdout, stderr } = await platform.operator(...args);
  if (code !== 0) throw new Error(`operator ${args.join(' ')} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as Json;
}

async function waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`not delivered within ${timeoutMs} ms (${delivered.length} deliveries)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ofPayment = (id: string) => delivered.filter((d) => d.event.data.payment?.['id'] === id);

let secret: string;
let endpointId: string;

describe('a registered Test endpoint', () => {
  it('is added with the operator CLI, its signing secret shown once', async () => {
    const endpoint = await operator('webhooks', 'endpoints', 'add', merchant.accountId, '--mode', 'test', '--url', receiverUrl);
    expect(endpoint).toMatchObject({ url: receiverUrl, livemode: false, status: 'enabled', secret: expect.stringMatching(/^whsec_/) });
    secret = String(endpoint['secret']);
    endpointId = String(endpoint['id']);
    const listed = (await operator('webhooks', 'endpoints', 'list', merchant.accountId, '--mode', 'test')) as unknown as Json[];
    expect(listed.map((e) => e['id'])).toEqual([endpointId]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('receives payment.started and payment.paid of create → start → simulate paid, verifiable with standardwebhooks', async () => {
    const session = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      customer_email: 'hooked@example.com',
      reference: 'ORD 7',
      success_url: 'https://shop.example/orders/{REFERENCE}/paid/{PAYMENT_ID}?id={PAYMENT_ID}#{REFERENCE}',
    });
    const id = String(session['id']);
    expect((await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} })).status).toBe(200);
    const paid = await bodyOf(
      await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } }),
    );
    expect(paid['status']).toBe('paid');
    await waitFor(() => ofPayment(id).length >= 2);

    const verifier = new Webhook(secret);
    const events = ofPayment(id).map((d) => {
      // Throws unless webhook-id, webhook-timestamp and webhook-signature sign exactly this raw body.
      verifier.verify(d.raw, d.headers);
      expect(d.headers['webhook-id']).toBe(d.event.id);
      return d.event;
    });
    // Events may arrive in any order (spec, "Events"); the sequence itself is tested in services/webhooks.
    expect(events.map((e) => e.type).sort()).toEqual(['payment.paid', 'payment.started']);
    for (const event of events) {
      expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), livemode: false, created: expect.any(Number) });
      expect(String(event.created)).toHaveLength(10); // seconds
    }
    const paidEvent = events.find((e) => e.type === 'payment.paid')!;
    // As set, placeholders left in: percent-encoded in the path only (spec, webhook payment shape).
    expect(paidEvent.data.payment!['successUrl']).toBe(
      'https://shop.example/orders/%7BREFERENCE%7D/paid/%7BPAYMENT_ID%7D?id={PAYMENT_ID}#{REFERENCE}',
    );
    expect(paidEvent.data.payment).toMatchObject({
      id,
      mode: 'test',
      source: 'api',
      status: 'paid',
      amount: '25.00',
      currency: 'USD',
      customerEmail: 'hooked@example.com',
      coin: 'polygon_usdc',
      feeBps: expect.any(Number),
      paidAt: expect.any(Number),
      merchantReceived: paid['settlement'] ? (paid['settlement'] as Json)['merchant_received'] : undefined,
    });
    expect(String(paidEvent.data.payment!['createdAt'])).toHaveLength(13); // milliseconds
    const tampered = ofPayment(id).find((d) => d.event.type === 'payment.paid')!;
    expect(() => verifier.verify(tampered.raw.replace('"paid"', '"held"'), tampered.headers)).toThrow();
  });

  it('lists events and attempts, resends with the same evt_ id, and pings with data.payment null', async () => {
    const events = (await operator('webhooks', 'events', 'list', merchant.accountId, '--mode', 'test')) as unknown as Json[];
    expect(events.length).toBeGreaterThanOrEqual(2);
    const paidEvent = events.find((e) => e['type'] === 'payment.paid')!;
    const attempts = (await operator(
      'webhooks',
      'attempts',
      'list',
      merchant.accountId,
      String(paidEvent['id']),
      '--mode',
      'test',
    )) as unknown as Json[];
    expect(attempts[0]).toMatchObject({ endpoint: endpointId, status: 204, succeeded: true, latency_ms: expect.any(Number) });

    const before = delivered.length;
    await operator('webhooks', 'events', 'resend', merchant.accountId, String(paidEvent['id']), '--mode', 'test');
    await waitFor(() => delivered.length > before);
    expect(delivered.at(-1)!.event.id).toBe(paidEvent['id']);

    const ping = await operator('webhooks', 'ping', merchant.accountId, endpointId, '--mode', 'test');
    await waitFor(() => delivered.some((d) => d.event.type === 'ping'));
    const pinged = delivered.find((d) => d.event.type === 'ping')!;
    expect(pinged.event).toMatchObject({ id: ping['id'], livemode: false, data: { payment: null } });
    new Webhook(secret).verify(pinged.raw, pinged.headers);
  });

  it('gets no Live events', async () => {
    const live = await createSession(platform, merchant.liveKey, { ...VALID_BODY, customer_email: 'live@example.com' });
    await platform.request('POST', `/v1/checkout_sessions/${String(live['id'])}/start`, { key: merchant.liveKey, body: {} });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ofPayment(String(live['id']))).toEqual([]);
  });
});

describe('erasing a customer', () => {
  it("removes the buyer's details from the webhook delivery log, every stream and the logs", async () => {
    const email = 'forget.webhooks@example.com';
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: email });
    const id = String(session['id']);
    await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} });
    await waitFor(() => ofPayment(id).length >= 1);
    const deadline = Date.now() + 5000;
    let customer: Json | undefined;
    while (!customer && Date.now() < deadline) {
      customer = (
        (await bodyOf(await platform.request('GET', `/v1/customers?email=${email}`, { key: merchant.testKey })))['data'] as Json[]
      )[0];
    }
    await operator('customers', 'erase', merchant.accountId, String(customer!['id']), '--mode', 'test');

    const rows = () => everyRowOf(platform.webhooks!.databaseUrl);
    const until = Date.now() + 5000;
    while ((await rows()).includes(email) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await rows()).not.toContain(email);
    // The payment's messages leave the bus once both durable consumers (customers, webhooks) passed them.
    const bus = await eventually(
      () => everyStreamMessage(platform.stack.natsUrl, platform.stack.natsPrefix),
      (text) => !text.includes(email),
    );
    expect(bus).toContain(id);
    expect(bus).not.toContain(email);
    expect(platform.logs()).not.toContain(email);
  });
});
