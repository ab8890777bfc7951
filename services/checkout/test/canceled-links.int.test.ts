// Risk covered (issue 51): a buyer handed over to pay a payment link the merchant canceled at the same
// moment; money on a canceled link reported as an ordinary paid order (payment.paid, fulfilment); a
// decline after expiry rewriting the expiry — over real gRPC to checkout and settlement, PostgreSQL
// and JetStream (the events as published).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import { ARRIVED_AFTER_CANCEL } from '../src/domain/payment-transitions.ts';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { logPaymentEvents, type PaymentEventLog } from './support/payment-event-log.ts';

const logger = createLogger('canceled-links-test', { level: 'silent' });
const test: CallContext = { accountId: 'acct_C', livemode: false, requestId: 'req_c' };
const buyer: PublicCallContext = { requestId: 'req_buyer' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150, merchantName: 'Kiln & Co' };
const ROUNDS = 40;
let stack: CheckoutStack;
let admin: ServiceClient<typeof CheckoutAdminService>;
let checkout: ServiceClient<typeof CheckoutService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;
let events: PaymentEventLog;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'canceled-links', publicBaseUrl: 'https://pay.example.test' });
  await stack.putAccount({ id: test.accountId, name: account.merchantName, payoutWallet: account.payoutWallet, feeBps: account.feeBps });
  admin = createServiceClient(CheckoutAdminService, stack.checkout.address);
  checkout = createServiceClient(CheckoutService, stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, stack.checkout.address);
  events = await logPaymentEvents(stack, 'canceled-links', logger);
});

afterAll(async () => {
  await events.stop();
  admin.close();
  checkout.close();
  hosted.close();
  await stack.stop();
});

/** A payment link the buyer started on the hosted page (still open: nobody went to a provider). */
async function startedLink(): Promise<string> {
  const { payment: link } = await admin.createPaymentLink(
    { amount: '40.00', currency: 'EUR', description: 'Vase', customerName: 'Ada', customerEmail: 'ada@example.com', account },
    test,
  );
  const id = link!.id;
  await hosted.startHostedSession({ id }, buyer);
  return id;
}

/** This payment's event types once one of `last` arrived (the outbox relays a moment after the change). */
async function typesUntil(id: string, ...last: string[]): Promise<string[]> {
  return (await events.until(id, (all) => all.some((e) => last.includes(e.type)))).map((e) => e.type);
}

describe('cancel racing the buyer going to a provider', () => {
  it(`fired together ${ROUNDS} times: the two happen in one order or the other, and a canceled link is never handed over`, async () => {
    // Since ADR 0081 a link at a provider that nobody paid can still be canceled, so the cancel always
    // succeeds; what the row lock decides is the order. Cancel first: the click is refused `canceled`
    // and the buyer never reaches the provider. Click first: the buyer was handed over a link that was
    // live at that moment, and the cancel's answer says a buyer had gone to a provider (provider set),
    // so money still arriving is held for review (ARRIVED_AFTER_CANCEL), never paid.
    const orders = { cancelFirst: 0, clickFirst: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = await startedLink();
      // The click first in each round, so its read of the link comes before the cancel commits.
      const [click, cancel] = await Promise.allSettled([
        hosted.reachHostedProvider({ id, provider: 'cardrail' }, buyer),
        admin.cancelPaymentLink({ id }, test),
      ]);
      expect({ round, cancel: cancel.status }).toEqual({ round, cancel: 'fulfilled' });
      const canceled = cancel.status === 'fulfilled' ? cancel.value.payment : undefined;
      const { payment: after } = await checkout.getCheckoutSession({ id }, test);
      expect(after).toMatchObject({ status: 'expired', canceledAt: expect.anything() });
      if (click.status === 'rejected') {
        orders.cancelFirst += 1;
        expect({ round, click: click.reason as unknown }).toMatchObject({ round, click: { code: 'canceled' } });
        expect(after!.provider).toBeUndefined();
        expect(canceled?.provider).toBeUndefined();
      } else {
        orders.clickFirst += 1;
        expect({ round, answered: canceled?.provider, stored: after!.provider }).toEqual({
          round,
          answered: 'cardrail',
          stored: 'cardrail',
        });
      }
    }
    expect(orders.cancelFirst + orders.clickFirst).toBe(ROUNDS);
  });

  it('a click after the cancel is refused with canceled, and on an expired or paid payment with their codes', async () => {
    const canceled = await startedLink();
    await admin.cancelPaymentLink({ id: canceled }, test);
    await expect(hosted.reachHostedProvider({ id: canceled, provider: 'cardrail' }, buyer)).rejects.toMatchObject({ code: 'canceled' });
    await expect(checkout.markProviderReached({ id: canceled, provider: 'cardrail' }, test)).rejects.toMatchObject({ code: 'canceled' });
    const expired = await startedLink();
    await checkout.simulatePayment({ id: expired, outcome: 'expired' }, test);
    await expect(hosted.reachHostedProvider({ id: expired, provider: 'cardrail' }, buyer)).rejects.toMatchObject({ code: 'expired' });
    const paid = await startedLink();
    await checkout.simulatePayment({ id: paid, outcome: 'paid' }, test);
    await expect(checkout.markProviderReached({ id: paid, provider: 'cardrail' }, test)).rejects.toMatchObject({ code: 'already_paid' });
  });
});

describe('money reaching a canceled payment link', () => {
  it('is held for review with the cancel as its reason, acceptable, payment.held and never payment.paid', async () => {
    const id = await startedLink();
    await admin.cancelPaymentLink({ id }, test);
    const { updated: payment } = await checkout.simulatePayment({ id, outcome: 'paid' }, test);
    expect(payment).toMatchObject({ status: 'held', holdReason: ARRIVED_AFTER_CANCEL, holdAcceptable: true });
    expect(payment!.canceledAt).toBeDefined();
    expect(payment!.paidAt).toBeUndefined();
    expect(await typesUntil(id, 'payment.held', 'payment.paid')).toEqual(['payment.started', 'payment.canceled', 'payment.held']);
    const held = events.of(id).at(-1)!;
    expect(held.payment).toMatchObject({ status: 'held', holdReason: ARRIVED_AFTER_CANCEL, holdAcceptable: true });
    // The merchant decides: accepting it is the merchant's own act, and only then payment.paid.
    const { updated: accepted } = await checkout.acceptHeldPayment({ id }, test);
    expect(accepted!.status).toBe('paid');
    expect(await typesUntil(id, 'payment.paid')).toEqual(['payment.started', 'payment.canceled', 'payment.held', 'payment.paid']);
  });

  it("underpaid: held, the cancel first in the reason, then settlement's", async () => {
    const id = await startedLink();
    await admin.cancelPaymentLink({ id }, test);
    const { updated: payment } = await checkout.simulatePayment({ id, outcome: 'underpaid' }, test);
    expect(payment).toMatchObject({ status: 'held', holdAcceptable: true });
    expect(payment!.holdReason).toMatch(new RegExp(`^${ARRIVED_AFTER_CANCEL.replaceAll('.', '\\.')} .*needed`));
    expect(await typesUntil(id, 'payment.held', 'payment.paid')).toEqual(['payment.started', 'payment.canceled', 'payment.held']);
  });
});

describe('a decline after expiry', () => {
  it('is refused with 409 already_expired and changes nothing; a late paid still lands', async () => {
    const id = await startedLink();
    await checkout.simulatePayment({ id, outcome: 'expired' }, test);
    await expect(checkout.simulatePayment({ id, outcome: 'failed' }, test)).rejects.toMatchObject({ code: 'already_expired' });
    await expect(hosted.simulateHostedPayment({ id, outcome: 'failed' }, buyer)).rejects.toMatchObject({ code: 'already_expired' });
    expect((await checkout.getCheckoutSession({ id }, test)).payment!.status).toBe('expired');
    const { updated: payment } = await checkout.simulatePayment({ id, outcome: 'paid' }, test);
    expect(payment!.status).toBe('paid');
    expect(await typesUntil(id, 'payment.paid')).toEqual(['payment.started', 'payment.expired', 'payment.paid']);
  });

  it('on a canceled link too: already_expired, still canceled', async () => {
    const id = await startedLink();
    await admin.cancelPaymentLink({ id }, test);
    await expect(checkout.simulatePayment({ id, outcome: 'failed' }, test)).rejects.toMatchObject({
      code: 'already_expired',
      message: expect.stringMatching(/canceled/),
    });
    const { payment } = await checkout.getCheckoutSession({ id }, test);
    expect(payment).toMatchObject({ status: 'expired', canceledAt: expect.anything() });
  });
});
