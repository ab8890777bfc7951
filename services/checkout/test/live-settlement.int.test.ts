// Risk covered: a Live payment paid wrongly, twice or never — the processor (emulated, over HTTP)
// issues the deposit address, its signed notices reach settlement's own listener, the settlement
// checks decide, and the verdict travels settlement outbox → JetStream → checkout, applied once.
// Forged, stale and replayed notices change nothing; a Test simulate's verdict, published on
// JetStream too, is applied once. Real PostgreSQL, NATS, HTTP and gRPC.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { payThroughEmulator, signNotice, type NoticeBody, type PayOptions } from '@hc/emulator';
import { connectNats, streamName, type NatsConnection } from '@hc/events';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { SettlementService } from '@hc/proto/settlement/v1';
import { eventually } from '@hc/test-kit';
import { VERDICTS_CONSUMER } from '../src/api/consumers/settlement-verdicts.ts';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { logPaymentEvents, type PaymentEventLog } from './support/payment-event-log.ts';

const logger = createLogger('live-settlement-test', { level: 'silent' });
const live: CallContext = { accountId: 'acct_LV', livemode: true, requestId: 'req_lv' };
const test: CallContext = { ...live, livemode: false };
const WALLET = '0x4444444444444444444444444444444444444444';
const account = { payoutWallet: WALLET, feeBps: 150 };
const SECRET = 'whsec_bG9jYWwtZW11bGF0b3Itbm90aWNlLXNlY3JldC0wMDE=';
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
let settlement: ServiceClient<typeof SettlementService>;
let events: PaymentEventLog;
/** For reading the verdict consumer's progress. */
let nats: NatsConnection;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'live' });
  // The account's owner has the wallet settlement names when the emulator forwards (docs/adr/0081).
  await stack.putAccount({ id: live.accountId, payoutWallet: WALLET });
  client = createServiceClient(CheckoutService, stack.checkout.address);
  settlement = createServiceClient(SettlementService, stack.settlement.address);
  events = await logPaymentEvents(stack, 'live-settlement', logger);
  nats = await connectNats(stack.natsUrl, 'live-settlement-progress');
});

afterAll(async () => {
  await events.stop();
  await nats.drain();
  client.close();
  settlement.close();
  await stack.stop();
});

async function startedPayment(ctx: CallContext = live, amount = '21.55'): Promise<Payment> {
  const { payment } = await client.createCheckoutSession(
    { amount, currency: 'USD', description: 'Kettle', customerEmail: 'kim@example.com', account },
    ctx,
  );
  const { payment: started } = await client.startCheckoutSession({ id: payment!.id, account }, ctx);
  return started!;
}

/** The deposit address settlement locked at start (a repeated lock returns the first one). */
async function depositAddressOf(p: Payment, ctx: CallContext = live): Promise<string | undefined> {
  const { lock } = await settlement.lockSettlement(
    { paymentId: p.id, amount: p.amount, currency: p.currency, payoutWallet: WALLET, feeBps: 150 },
    ctx,
  );
  return lock!.depositAddress;
}

async function payment(id: string, ctx: CallContext = live): Promise<Payment> {
  return (await client.getCheckoutSession({ id }, ctx)).payment!;
}

async function settled(id: string): Promise<Payment> {
  return eventually(
    () => payment(id),
    (p) => p.status !== 'open',
  );
}

/** Checkout's verdict consumer has taken (and acked) every verdict settlement published so far. */
async function verdictsConsumed(): Promise<void> {
  const jsm = await jetstreamManager(nats);
  const stream = streamName(stack.natsPrefix, 'settlement');
  await eventually(
    async () => {
      const [s, c] = await Promise.all([jsm.streams.info(stream), jsm.consumers.info(stream, VERDICTS_CONSUMER)]);
      return s.state.last_seq === c.ack_floor.stream_seq;
    },
    (done) => done,
  );
}

function eventTypes(id: string): string[] {
  return events.typesOf(id);
}

/** The payment's event types once `last` has arrived (events reach this test's consumer after the relay). */
function eventTypesThrough(id: string, last: string): Promise<string[]> {
  return eventually(
    async () => eventTypes(id),
    (types) => types.includes(last),
  );
}

async function pay(id: string, options: PayOptions) {
  return payThroughEmulator(stack.emulator.url, id, options);
}

async function postNotice(headers: Record<string, string>, body: string): Promise<{ status: number; outcome?: string }> {
  const response = await fetch(`http://${stack.settlement.noticesAddress}/notices`, { method: 'POST', headers, body });
  const answer = (await response.json()) as { outcome?: string };
  return { status: response.status, ...answer };
}

async function noticeFor(p: Payment, change: Partial<NoticeBody> = {}): Promise<NoticeBody> {
  return {
    type: 'transfer.forwarded',
    payment_id: p.id,
    deposit_address: (await depositAddressOf(p)) ?? '0x0000000000000000000000000000000000000001',
    txid_in: `0x${Buffer.from(p.id).toString('hex').padEnd(64, '0').slice(0, 64)}`,
    coin: 'polygon_usdc',
    value_coin: '21.550000',
    forwarded_to: WALLET,
    txid_out: `0x${'e'.repeat(64)}`,
    value_forwarded: '21.226750',
    ...change,
  };
}

describe('a Live payment paid through the processor', () => {
  it('gets its deposit address from the processor at start', async () => {
    const p = await startedPayment();
    const address = await depositAddressOf(p);
    expect(address).toMatch(/^0x[0-9a-f]{40}$/);
    expect((await pay(p.id, { amount: '1', notice: 'never' })).deposit_address).toBe(address);
  });

  it('ends paid on an on-time notice, with what arrived and what was forwarded, and one payment.paid', async () => {
    const p = await startedPayment();
    const paid = await pay(p.id, { amount: '21.55', coin: 'polygon_usdt' });
    expect(paid.notice.deliveries).toEqual([{ id: expect.any(String), status: 200 }]);
    const after = await settled(p.id);
    expect(after.status).toBe('paid');
    expect(after).toMatchObject({
      coin: 'polygon_usdt',
      valueCoin: '21.550000',
      merchantReceived: '21.226750',
      txidIn: paid.txid_in,
      txidOut: paid.txid_out,
    });
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
    // The timeline says the notice was received with a verified signature, what was forwarded, and the verdict.
    const { entries } = await client.getPaymentTimeline({ id: p.id }, live);
    const line = (kind: string) => JSON.parse(entries.find((e) => e.kind === kind)!.detailJson) as Record<string, unknown>;
    expect(line('notice_received')).toMatchObject({ notice: paid.notice.deliveries[0]!.id, signature: 'verified', txid_in: paid.txid_in });
    expect(line('forwarded')).toMatchObject({ forwarded_to: WALLET, txid_out: paid.txid_out, value_forwarded: '21.226750' });
    expect(line('verdict')).toMatchObject({ kind: 'paid', merchant_received: '21.226750' });
  });

  it('is paid once when the processor sends its notice twice', async () => {
    const p = await startedPayment();
    const paid = await pay(p.id, { amount: '21.55', notice: 'duplicate' });
    expect(paid.notice.deliveries.map((d) => d.status)).toEqual([200, 200]);
    expect((await settled(p.id)).status).toBe('paid');
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
  });

  it('is paid once when its notices arrive out of order (the re-sent copy before the original)', async () => {
    const p = await startedPayment();
    const paid = await pay(p.id, { amount: '21.55', notice: 'out-of-order' });
    const [resent, original] = paid.notice.deliveries;
    expect(resent!.id).not.toBe(original!.id);
    expect([resent!.status, original!.status]).toEqual([200, 200]);
    expect(await settled(p.id)).toMatchObject({ status: 'paid', txidIn: paid.txid_in });
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
    const { entries } = await client.getPaymentTimeline({ id: p.id }, live);
    const kinds = entries.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'verdict')).toHaveLength(1);
    expect(kinds).toContain('notice_duplicate');
  });

  it('holds a short payment, acceptably, saying what arrived and what was needed', async () => {
    const p = await startedPayment();
    await pay(p.id, { amount: '18.40' });
    expect(await settled(p.id)).toMatchObject({
      status: 'held',
      holdReason: '18.40 USDC arrived, 19.40 needed (90% of 21.55 USD).',
      holdAcceptable: true,
    });
  });

  it('pays exactly 90.00% and holds 89.99%', async () => {
    const [exact, short] = await Promise.all([startedPayment(), startedPayment()]);
    await pay(exact.id, { amount: '19.395' });
    await pay(short.id, { amount: '19.392845', coin: 'polygon_usdt' });
    expect((await settled(exact.id)).status).toBe('paid');
    expect(await settled(short.id)).toMatchObject({ status: 'held', holdAcceptable: true });
  });

  it('holds money forwarded to another wallet, not acceptably', async () => {
    const p = await startedPayment();
    await pay(p.id, { amount: '21.55', forwardTo: '0x9999999999999999999999999999999999999999' });
    const after = await settled(p.id);
    expect(after).toMatchObject({ status: 'held', holdAcceptable: false });
    expect(after.holdReason).toContain('0x9999999999999999999999999999999999999999');
  });

  it('holds money sent to another address, not acceptably', async () => {
    const p = await startedPayment();
    await pay(p.id, { amount: '21.55', toAddress: '0x8888888888888888888888888888888888888888' });
    expect(await settled(p.id)).toMatchObject({ status: 'held', holdAcceptable: false });
  });

  it('never pays a transaction twice, across payments: the second is held, not acceptably', async () => {
    const [first, second] = await Promise.all([startedPayment(), startedPayment()]);
    const paid = await pay(first.id, { amount: '21.55' });
    expect((await settled(first.id)).status).toBe('paid');
    await pay(second.id, { amount: '21.55', reuseTxidOf: first.id });
    const held = await settled(second.id);
    expect(held).toMatchObject({ status: 'held', holdAcceptable: false });
    expect(held.holdReason).toContain(paid.txid_in);
  });

  it('pays an expired payment when the money arrives late: payment.expired, then payment.paid', async () => {
    const p = await startedPayment();
    stack.clock.advance(25 * 3600 * 1000);
    expect((await payment(p.id)).status).toBe('expired');
    await pay(p.id, { amount: '21.55' });
    expect(
      (
        await eventually(
          () => payment(p.id),
          (x) => x.status === 'paid',
        )
      ).status,
    ).toBe('paid');
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.expired', 'payment.paid']);
  });
});

describe('late money on an expired payment', () => {
  it('holds it when it is short: payment.expired, then payment.held, acceptably', async () => {
    const p = await startedPayment();
    stack.clock.advance(25 * 3600 * 1000);
    expect((await payment(p.id)).status).toBe('expired');
    await pay(p.id, { amount: '18.40' });
    const held = await eventually(
      () => payment(p.id),
      (x) => x.status === 'held',
    );
    expect(held).toMatchObject({ holdAcceptable: true, holdReason: '18.40 USDC arrived, 19.40 needed (90% of 21.55 USD).' });
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.held')).toEqual(['payment.started', 'payment.expired', 'payment.held']);
  });
});

describe('notices that must change nothing', () => {
  it('rejects a forged signature, an unsigned notice and a stale one with 401', async () => {
    const p = await startedPayment();
    const body = await noticeFor(p);
    const forged = signNotice('whsec_Zm9yZ2VkLWZvcmdlZC1mb3JnZWQtZm9yZ2VkLWZvcmdlZDE=', body, new Date());
    expect((await postNotice(forged.headers, forged.body)).status).toBe(401);
    expect((await postNotice({ 'content-type': 'application/json' }, JSON.stringify(body))).status).toBe(401);
    const stale = signNotice(SECRET, body, new Date(Date.now() - 10 * 60 * 1000));
    expect((await postNotice(stale.headers, stale.body)).status).toBe(401);
    // A body changed after signing is a forgery too.
    const genuine = signNotice(SECRET, body, new Date());
    expect((await postNotice(genuine.headers, genuine.body.replace('21.550000', '99.550000'))).status).toBe(401);
    expect((await payment(p.id)).status).toBe('open');
    // Each refusal is flagged on the payment's timeline with its reason, nothing of the forged body kept.
    const { entries } = await client.getPaymentTimeline({ id: p.id }, live);
    const rejected = entries.filter((e) => e.kind === 'notice_rejected').map((e) => JSON.parse(e.detailJson) as { reason: string });
    expect(rejected).toHaveLength(4);
    for (const line of rejected) expect(line.reason).toMatch(/^signature: /);
    expect(entries.map((e) => e.detailJson).join(' ')).not.toContain('99.55');
  });

  it('flags at most 20 refused notices per payment, so a flood of forgeries cannot bury its timeline', async () => {
    const p = await startedPayment();
    const body = await noticeFor(p);
    for (let i = 0; i < 25; i += 1) {
      const forged = signNotice('whsec_Zm9yZ2VkLWZvcmdlZC1mb3JnZWQtZm9yZ2VkLWZvcmdlZDE=', body, new Date());
      expect((await postNotice(forged.headers, forged.body)).status).toBe(401);
    }
    const { entries } = await client.getPaymentTimeline({ id: p.id }, live);
    expect(entries.filter((e) => e.kind === 'notice_rejected')).toHaveLength(20);
  });

  it('handles a notice id once: a replay is answered "replayed" and changes nothing', async () => {
    const p = await startedPayment();
    const notice = signNotice(SECRET, await noticeFor(p), new Date());
    expect(await postNotice(notice.headers, notice.body)).toEqual({ status: 200, outcome: 'verdict' });
    expect(await postNotice(notice.headers, notice.body)).toEqual({ status: 200, outcome: 'replayed' });
    expect((await settled(p.id)).status).toBe('paid');
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
  });

  it('takes reordered notices of one transaction (a re-sent copy first) as one payment', async () => {
    const p = await startedPayment();
    const original = signNotice(SECRET, await noticeFor(p), new Date(Date.now() - 60_000));
    const resent = signNotice(SECRET, await noticeFor(p), new Date());
    expect((await postNotice(resent.headers, resent.body)).outcome).toBe('verdict');
    expect((await postNotice(original.headers, original.body)).outcome).toBe('duplicate');
    await settled(p.id);
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
  });

  it('answers a notice about a payment settlement does not know without changing anything', async () => {
    const p = await startedPayment(test);
    const body = {
      type: 'transfer.forwarded',
      payment_id: p.id,
      deposit_address: `0x${'1'.repeat(40)}`,
      txid_in: `0x${'f'.repeat(64)}`,
      coin: 'polygon_usdc',
      value_coin: '21.55',
      forwarded_to: WALLET,
      txid_out: null,
      value_forwarded: null,
    } as const;
    const notice = signNotice(SECRET, body, new Date());
    expect(await postNotice(notice.headers, notice.body)).toEqual({ status: 200, outcome: 'unknown_payment' });
    expect((await payment(p.id, test)).status).toBe('open');
  });
});

describe('Test mode', () => {
  it('applies a simulated verdict once though it also arrives over JetStream', async () => {
    const p = await startedPayment(test);
    const { updated: paid } = await client.simulatePayment({ id: p.id, outcome: 'paid' }, test);
    expect(paid!.status).toBe('paid');
    await verdictsConsumed();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
  });
});
