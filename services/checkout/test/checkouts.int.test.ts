// Risk covered: a dashboard checkout (chk_) whose visits are not payments like any other (source,
// checkout id and plan label missing from the webhook), a pricing table that takes an unknown plan or a
// buyer price outside the range, an archived checkout still taking payments or touching old ones, a
// checkout of another account or mode shown — over real gRPC, PostgreSQL and JetStream.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import type { PaymentEvent } from '../src/domain/payment-events.ts';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { logPaymentEvents, type PaymentEventLog } from './support/payment-event-log.ts';

const logger = createLogger('checkouts-test', { level: 'silent' });
const test: CallContext = { accountId: 'acct_C', livemode: false, requestId: 'req_c' };
const buyer: PublicCallContext = { requestId: 'req_buyer' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150, merchantName: 'Kiln & Co' };
let stack: CheckoutStack;
let admin: ServiceClient<typeof CheckoutAdminService>;
let checkout: ServiceClient<typeof CheckoutService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;
let events: PaymentEventLog;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'checkouts' });
  await stack.putAccount({ id: test.accountId, name: account.merchantName, payoutWallet: account.payoutWallet, feeBps: account.feeBps });
  admin = createServiceClient(CheckoutAdminService, stack.checkout.address);
  checkout = createServiceClient(CheckoutService, stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, stack.checkout.address);
  events = await logPaymentEvents(stack, 'checkouts', logger);
});

afterAll(async () => {
  await events.stop();
  admin.close();
  checkout.close();
  hosted.close();
  await stack.stop();
});

async function eventOf(paymentId: string, type: string): Promise<PaymentEvent | undefined> {
  return (await events.until(paymentId, (mine) => mine.some((e) => e.type === type))).find((e) => e.type === type);
}

const plans = [
  { label: 'Basic', amount: '9' },
  { label: 'Pro', amount: '29.00' },
];

describe('dashboard checkouts', () => {
  it('a pricing table visit is a payment with source checkout, checkoutId and planLabel', async () => {
    const { checkout: table } = await admin.createCheckout(
      { kind: 'pricing_table', description: 'Hosting', currency: 'eur', plans, account },
      test,
    );
    expect(table!.id).toMatch(/^chk_/);
    expect(table!.plans).toEqual([
      expect.objectContaining({ label: 'Basic', amount: '9.00' }),
      expect.objectContaining({ label: 'Pro', amount: '29.00' }),
    ]);
    const { paymentId } = await hosted.payCheckout({ id: table!.id, plan: 1 }, buyer);
    const { payment } = await checkout.getCheckoutSession({ id: paymentId }, test);
    expect(payment).toMatchObject({ amount: '29.00', currency: 'EUR', description: 'Hosting', status: 'open' });
    await hosted.startHostedSession({ id: paymentId, customerEmail: 'b@example.com' }, buyer);
    await hosted.simulateHostedPayment({ id: paymentId, outcome: 'paid' }, buyer);
    expect((await eventOf(paymentId, 'payment.paid'))!.payment).toMatchObject({
      source: 'checkout',
      checkoutId: table!.id,
      planLabel: 'Pro — 29.00 EUR',
      trackingUrl: null,
    });
    // Each visit is its own payment.
    const second = await hosted.payCheckout({ id: table!.id, plan: 0 }, buyer);
    expect(second.paymentId).not.toBe(paymentId);
    await expect(hosted.payCheckout({ id: table!.id, plan: 2 }, buyer)).rejects.toMatchObject({ code: 'invalid_plans' });
    await expect(hosted.payCheckout({ id: table!.id }, buyer)).rejects.toMatchObject({ code: 'invalid_plans' });
  });

  it('a page with a buyer-entered price takes only amounts in its range', async () => {
    const { checkout: page } = await admin.createCheckout(
      { kind: 'page', description: 'Donation', currency: 'USD', minAmount: '5', maxAmount: '500', account },
      test,
    );
    await expect(hosted.payCheckout({ id: page!.id, amount: '4.99' }, buyer)).rejects.toMatchObject({
      code: 'invalid_amount',
      field: 'amount',
    });
    await expect(hosted.payCheckout({ id: page!.id, amount: '1e2' }, buyer)).rejects.toMatchObject({ code: 'invalid_amount' });
    const { paymentId } = await hosted.payCheckout({ id: page!.id, amount: '12.5' }, buyer);
    expect((await checkout.getCheckoutSession({ id: paymentId }, test)).payment!.amount).toBe('12.50');
  });

  it('archived: no new payment (archived), old payments untouched; another account or mode: not_found', async () => {
    const { checkout: page } = await admin.createCheckout(
      { kind: 'widget', description: 'Mug', currency: 'USD', amount: '15', account },
      test,
    );
    const { paymentId } = await hosted.payCheckout({ id: page!.id }, buyer);
    const { checkout: archived } = await admin.archiveCheckout({ id: page!.id }, test);
    expect(archived!.archivedAt).toBeDefined();
    await expect(hosted.payCheckout({ id: page!.id }, buyer)).rejects.toMatchObject({ code: 'archived' });
    expect((await checkout.getCheckoutSession({ id: paymentId }, test)).payment!.status).toBe('open');
    await expect(admin.getCheckout({ id: page!.id }, { ...test, accountId: 'acct_other' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin.archiveCheckout({ id: page!.id }, { ...test, livemode: true })).rejects.toMatchObject({ code: 'not_found' });
    const { checkouts } = await admin.listCheckouts({}, test);
    expect(checkouts.map((c) => c.id)).toContain(page!.id);
  });

  it('refuses bad checkouts with the API codes and writes nothing', async () => {
    const before = (await admin.listCheckouts({ limit: 100 }, test)).checkouts.length;
    const base = { description: 'Bad', currency: 'USD', account };
    await expect(admin.createCheckout({ ...base, kind: 'pricing_table', plans: plans.slice(0, 1) }, test)).rejects.toMatchObject({
      code: 'invalid_plans',
    });
    await expect(
      admin.createCheckout({ ...base, kind: 'pricing_table', plans: [...plans, ...plans, plans[0]!] }, test),
    ).rejects.toMatchObject({
      code: 'invalid_plans',
    });
    await expect(
      admin.createCheckout({ ...base, kind: 'pricing_table', plans: [{ label: 'A', amount: '0.5' }, plans[1]!] }, test),
    ).rejects.toMatchObject({
      code: 'invalid_amount',
    });
    await expect(admin.createCheckout({ ...base, kind: 'page', amount: '-5' }, test)).rejects.toMatchObject({
      code: 'invalid_amount',
      field: 'amount',
    });
    await expect(admin.createCheckout({ ...base, kind: 'page', minAmount: '50', maxAmount: '10' }, test)).rejects.toMatchObject({
      code: 'invalid_amount',
    });
    await expect(admin.createCheckout({ ...base, kind: 'banner', amount: '5' }, test)).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'kind',
    });
    expect((await admin.listCheckouts({ limit: 100 }, test)).checkouts.length).toBe(before);
  });

  it('lists checkouts newest first in pages, each checkout once; a cursor from another account or mode is refused', async () => {
    const pager: CallContext = { accountId: 'acct_pager', livemode: false, requestId: 'req_p' };
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const { checkout: c } = await admin.createCheckout(
        { kind: 'page', description: `Mug ${i}`, currency: 'USD', amount: '15', account },
        pager,
      );
      made.push(c!.id);
    }
    const first = await admin.listCheckouts({ limit: 2 }, pager);
    expect(first.checkouts.map((c) => c.id)).toEqual([made[4], made[3]]);
    expect(first.hasMore).toBe(true);
    const second = await admin.listCheckouts({ limit: 2, startingAfter: made[3] }, pager);
    expect(second.checkouts.map((c) => c.id)).toEqual([made[2], made[1]]);
    const last = await admin.listCheckouts({ limit: 2, startingAfter: made[1] }, pager);
    expect(last.checkouts.map((c) => c.id)).toEqual([made[0]]);
    expect(last.hasMore).toBe(false);
    for (const ctx of [
      { ...pager, accountId: 'acct_other' },
      { ...pager, livemode: true },
    ]) {
      await expect(admin.listCheckouts({ limit: 2, startingAfter: made[3] }, ctx)).rejects.toMatchObject({ code: 'invalid_cursor' });
    }
    await expect(admin.listCheckouts({ limit: 2, startingAfter: 'pay_nope' }, pager)).rejects.toMatchObject({ code: 'invalid_cursor' });
  });
});
