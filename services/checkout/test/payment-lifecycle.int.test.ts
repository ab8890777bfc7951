// Risk covered: a payment taking a transition twice, skipping one, or changing without its event —
// over real gRPC to checkout and settlement, PostgreSQL, and JetStream (the events as published).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { applyVerdict } from '../src/use-cases/apply-verdict.ts';
import { expireDuePayments } from '../src/use-cases/expire-due-payments.ts';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { logPaymentEvents, type PaymentEventLog } from './support/payment-event-log.ts';

const logger = createLogger('lifecycle-test', { level: 'silent' });
const test: CallContext = { accountId: 'acct_L', livemode: false, requestId: 'req_l' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
let events: PaymentEventLog;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'lifecycle' });
  client = createServiceClient(CheckoutService, stack.checkout.address);
  events = await logPaymentEvents(stack, 'lifecycle', logger);
});

afterAll(async () => {
  await events.stop();
  client.close();
  await stack.stop();
});

/** The event types published for one payment, once `count` of them have arrived (bounded wait). */
async function eventsOf(paymentId: string, count: number): Promise<string[]> {
  return (await events.atLeast(paymentId, count, 5000)).map((e) => e.type);
}

async function startedPayment(amount = '10.00'): Promise<string> {
  const { payment } = await client.createCheckoutSession(
    { amount, currency: 'USD', description: 'Lamp', customerEmail: 'eve@example.com', account },
    test,
  );
  await client.startCheckoutSession({ id: payment!.id, account }, test);
  return payment!.id;
}

describe('buyer reaches a provider', () => {
  it('moves open to pending with the provider, without an event', async () => {
    const id = await startedPayment();
    const { updated: payment } = await client.markProviderReached({ id, provider: 'cardrail' }, test);
    expect(payment!.status).toBe('pending');
    expect(payment!.provider).toBe('cardrail');
    const { updated: paid } = await client.simulatePayment({ id, outcome: 'paid' }, test);
    expect(paid!.status).toBe('paid');
    expect(await eventsOf(id, 2)).toEqual(['payment.started', 'payment.paid']);
  });

  it('refuses an unknown provider and an unstarted session', async () => {
    const id = await startedPayment();
    await expect(client.markProviderReached({ id, provider: 'nope' }, test)).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'provider',
    });
    const { payment } = await client.createCheckoutSession({ amount: '5', currency: 'USD', description: 'x' }, test);
    await expect(client.markProviderReached({ id: payment!.id, provider: 'cardrail' }, test)).rejects.toMatchObject({
      code: 'not_started',
    });
  });
});

describe('held payments', () => {
  it('accepted as paid keep merchant_received null and publish payment.paid', async () => {
    const id = await startedPayment();
    const { updated: held } = await client.simulatePayment({ id, outcome: 'underpaid' }, test);
    expect(held).toMatchObject({ status: 'held', holdAcceptable: true });
    const { updated: payment } = await client.acceptHeldPayment({ id }, test);
    expect(payment!.status).toBe('paid');
    expect(payment!.paidAt).toBeDefined();
    expect(payment!.merchantReceived).toBeUndefined();
    expect(payment!.valueCoin).toBe('5.000000');
    expect(await eventsOf(id, 3)).toEqual(['payment.started', 'payment.held', 'payment.paid']);
  });

  it('once accepted, late settlement details neither fill merchant_received nor publish payment.updated', async () => {
    const id = await startedPayment();
    await client.simulatePayment({ id, outcome: 'underpaid' }, test);
    await client.acceptHeldPayment({ id }, test);
    const late = await applyVerdict(stack.checkout.deps, test, {
      id: `vrd_late_details_${id}`,
      paymentId: id,
      kind: 'details',
      holdReason: null,
      holdAcceptable: false,
      settlement: {
        coin: 'polygon_usdc',
        valueCoin: '5.000000',
        merchantReceived: '4.925000',
        txidIn: '0xin',
        txidOut: '0xout',
        payoutWallet: null,
      },
    });
    expect(late.settlement.merchantReceived).toBeNull();
    expect(await eventsOf(id, 3)).toEqual(['payment.started', 'payment.held', 'payment.paid']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await eventsOf(id, 0)).toHaveLength(3);
  });

  it('cannot be accepted unless held and acceptable', async () => {
    const id = await startedPayment();
    await expect(client.acceptHeldPayment({ id }, test)).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('verdicts', () => {
  it('are applied once per verdict id, and late details publish payment.updated', async () => {
    const id = await startedPayment();
    await client.simulatePayment({ id, outcome: 'paid' }, test);
    const details = {
      id: `vrd_details_${id}`,
      paymentId: id,
      kind: 'details' as const,
      holdReason: null,
      holdAcceptable: false,
      settlement: {
        coin: 'polygon_usdc',
        valueCoin: '9.700000',
        merchantReceived: '9.554500',
        txidIn: '0xabc',
        txidOut: '0xdef',
        payoutWallet: null,
      },
    };
    const first = await applyVerdict(stack.checkout.deps, test, details);
    const again = await applyVerdict(stack.checkout.deps, test, { ...details, settlement: { ...details.settlement, txidIn: '0xother' } });
    expect(first.settlement.txidIn).toBe('0xabc');
    expect(again.settlement.txidIn).toBe('0xabc');
    expect(await eventsOf(id, 3)).toEqual(['payment.started', 'payment.paid', 'payment.updated']);
  });

  it('never undo a paid payment', async () => {
    const id = await startedPayment();
    await client.simulatePayment({ id, outcome: 'paid' }, test);
    const after = await applyVerdict(stack.checkout.deps, test, {
      id: `vrd_fail_${id}`,
      paymentId: id,
      kind: 'failed',
      holdReason: null,
      holdAcceptable: false,
      settlement: { coin: null, valueCoin: null, merchantReceived: null, txidIn: null, txidOut: null, payoutWallet: null },
    });
    expect(after.status).toBe('paid');
  });
});

describe('expiry', () => {
  it('the sweeper expires unpaid payments past expiry once, with payment.expired, and a late payment still lands', async () => {
    const started = await startedPayment();
    const { payment: unstarted } = await client.createCheckoutSession({ amount: '7', currency: 'USD', description: 'Never started' }, test);
    stack.clock.advance(24 * 60 * 60 * 1000);
    expect(await expireDuePayments(stack.checkout.deps)).toBeGreaterThanOrEqual(2);
    expect(await expireDuePayments(stack.checkout.deps)).toBe(0);
    expect((await client.getCheckoutSession({ id: unstarted!.id }, test)).payment!.status).toBe('expired');
    expect(await eventsOf(unstarted!.id, 1)).toEqual(['payment.expired']);
    const { updated: payment } = await client.simulatePayment({ id: started, outcome: 'paid' }, test);
    expect(payment!.status).toBe('paid');
    expect(await eventsOf(started, 3)).toEqual(['payment.started', 'payment.expired', 'payment.paid']);
    await expect(client.startCheckoutSession({ id: unstarted!.id, customerEmail: 'a@b.co', account }, test)).rejects.toMatchObject({
      code: 'expired',
    });
  });
});

describe('concurrency', () => {
  it('two starts at once keep one started_at and publish one payment.started', async () => {
    const { payment: created } = await client.createCheckoutSession(
      { amount: '12', currency: 'GBP', description: 'Mug', customerEmail: 'c@d.io' },
      test,
    );
    const results = await Promise.all([1, 2, 3, 4].map(() => client.startCheckoutSession({ id: created!.id, account }, test)));
    expect(new Set(results.map((r) => r.payment!.startedAt)).size).toBe(1);
    const { updated: payment } = await client.simulatePayment({ id: created!.id, outcome: 'failed' }, test);
    expect(payment!.status).toBe('failed');
    expect(await eventsOf(created!.id, 2)).toEqual(['payment.started', 'payment.failed']);
  });

  it('simulates racing give one outcome', async () => {
    const id = await startedPayment();
    const outcomes = ['paid', 'failed', 'underpaid', 'paid', 'failed'];
    const results = await Promise.all(outcomes.map((outcome) => client.simulatePayment({ id, outcome }, test)));
    const final = (await client.getCheckoutSession({ id }, test)).payment!;
    expect(results.every((r) => r.updated!.status === final.status)).toBe(true);
    expect((await eventsOf(id, 2)).length).toBe(2);
  });
});

describe('a simulated decline after expiry', () => {
  // Issue 51: the only moves out of `expired` are a late delivery to paid or held (docs/adr/0080).
  it('is refused with already_expired and leaves the expiry as it was; a late payment still lands', async () => {
    const id = await startedPayment();
    stack.clock.advance(24 * 60 * 60 * 1000);
    expect((await client.getCheckoutSession({ id }, test)).payment!.status).toBe('expired');
    await expect(client.simulatePayment({ id, outcome: 'failed' }, test)).rejects.toMatchObject({ code: 'already_expired' });
    expect((await client.getCheckoutSession({ id }, test)).payment!.status).toBe('expired');
    const { updated: payment } = await client.simulatePayment({ id, outcome: 'paid' }, test);
    expect(payment!.status).toBe('paid');
    expect(await eventsOf(id, 3)).toEqual(['payment.started', 'payment.expired', 'payment.paid']);
  });
});

describe('simulate expired', () => {
  it('expires a started payment now with payment.expired, and a late simulated payment is paid after it', async () => {
    const id = await startedPayment();
    const { updated: payment } = await client.simulatePayment({ id, outcome: 'expired' }, test);
    expect(payment!.status).toBe('expired');
    expect(Number(payment!.expiresAt)).toBeLessThanOrEqual(stack.clock.now().getTime());
    expect(Number(payment!.expiresAt)).toBeLessThan(Number(payment!.createdAt) + 3_600_000);
    expect(await eventsOf(id, 2)).toEqual(['payment.started', 'payment.expired']);
    // Again: unchanged, no second event.
    expect((await client.simulatePayment({ id, outcome: 'expired' }, test)).updated!.status).toBe('expired');
    const { updated: late } = await client.simulatePayment({ id, outcome: 'underpaid' }, test);
    expect(late!.status).toBe('held');
    expect(await eventsOf(id, 3)).toEqual(['payment.started', 'payment.expired', 'payment.held']);
  });

  it('expires an unstarted payment, leaves a finished one unchanged, and refuses a Live payment', async () => {
    const { payment } = await client.createCheckoutSession({ amount: '3', currency: 'USD', description: 'Pen' }, test);
    expect((await client.simulatePayment({ id: payment!.id, outcome: 'expired' }, test)).updated!.status).toBe('expired');
    expect(await eventsOf(payment!.id, 1)).toEqual(['payment.expired']);
    await expect(client.simulatePayment({ id: payment!.id, outcome: 'paid' }, test)).rejects.toMatchObject({ code: 'not_started' });

    const paid = await startedPayment();
    await client.simulatePayment({ id: paid, outcome: 'paid' }, test);
    expect((await client.simulatePayment({ id: paid, outcome: 'expired' }, test)).updated!.status).toBe('paid');

    const live: CallContext = { ...test, livemode: true };
    const { payment: livePayment } = await client.createCheckoutSession(
      { amount: '3', currency: 'USD', description: 'Pen', account },
      live,
    );
    await expect(client.simulatePayment({ id: livePayment!.id, outcome: 'expired' }, live)).rejects.toMatchObject({ code: 'live_payment' });
  });
});
