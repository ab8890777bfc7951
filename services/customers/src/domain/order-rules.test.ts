import { describe, expect, it } from '@jest/globals';
import type { PaymentChanged } from './checkout-events.ts';
import type { Order } from './customer.ts';
import { customerErasedEvent } from './erasure.ts';
import { applyPayment, decideStart } from './order-rules.ts';
import { clampLimit } from './paging.ts';

const t0 = new Date('2026-03-01T10:00:00Z');
const later = (ms: number): Date => new Date(t0.getTime() + ms);

const order: Order = {
  id: 'pay_1',
  accountId: 'acct_1',
  livemode: false,
  customerId: 'cus_1',
  email: 'ada@example.com',
  name: null,
  phone: null,
  shippingAddress: null,
  billingAddress: null,
  storeAccount: null,
  amount: '40.00',
  currency: 'EUR',
  status: 'open',
  statusAt: t0,
  createdAt: t0,
  paidAt: null,
  emailRevision: 0,
  paid: false,
  paidAmount: '0.00',
};

function paymentEvent(type: PaymentChanged['type'], status: string, at: Date, paidAt: Date | null = null): PaymentChanged {
  return {
    id: `pay_1.${type}.${at.getTime()}`,
    type,
    accountId: 'acct_1',
    livemode: false,
    occurredAt: at,
    payment: { id: 'pay_1', amount: '40.00', currency: 'EUR', status, paidAt },
  };
}

describe('session.started (rules 2, 4, 5)', () => {
  const ada = { email: 'ada@example.com', erased: false };

  it('ignores a revision not above the one applied (redelivered or late start)', () => {
    expect(decideStart({ ...order, emailRevision: 2 }, ada, 2, 'grace@example.com')).toEqual({ kind: 'stale' });
    expect(decideStart({ ...order, emailRevision: 2 }, ada, 1, 'grace@example.com')).toEqual({ kind: 'stale' });
  });

  it('attaches an order created without an email (rules 2 and 4)', () => {
    expect(decideStart({ ...order, customerId: null }, null, 1, 'ada@example.com')).toEqual({ kind: 'attach' });
  });

  it('keeps the customer when the email is the same', () => {
    expect(decideStart(order, ada, 1, 'ada@example.com')).toEqual({ kind: 'same_customer' });
  });

  it('moves the order when the email differs (rule 5)', () => {
    expect(decideStart(order, ada, 1, 'grace@example.com')).toEqual({ kind: 'move' });
  });

  it('moves the order of an erased customer even to the same address: a new customer (rule 7)', () => {
    expect(decideStart(order, { email: null, erased: true }, 3, 'ada@example.com')).toEqual({ kind: 'move' });
  });
});

describe('payment events', () => {
  it('set the status and paid time, and a paid payment adds its amount once per event', () => {
    const first = applyPayment(order, paymentEvent('payment.paid', 'paid', later(1000), later(900)));
    expect(first.order).toMatchObject({ status: 'paid', paid: true, paidAmount: '40.00', paidAt: later(900) });
    expect(first.paid).toEqual({ amount: '40.00', orderWasPaid: false });
    const second = applyPayment(first.order, paymentEvent('payment.paid', 'paid', later(5000), later(4900)));
    expect(second.order.paidAmount).toBe('80.00');
    expect(second.paid).toEqual({ amount: '40.00', orderWasPaid: true });
  });

  it('do not add anything for other types (held counts only once accepted as paid)', () => {
    const held = applyPayment(order, paymentEvent('payment.held', 'held', later(1000)));
    expect(held).toEqual({ order: { ...order, status: 'held', statusAt: later(1000) }, paid: null });
  });

  it('never set the status back to an older one', () => {
    const paid = applyPayment(order, paymentEvent('payment.paid', 'paid', later(2000), later(2000))).order;
    const lateStarted = applyPayment(paid, paymentEvent('payment.started', 'pending', later(1000)));
    expect(lateStarted.order.status).toBe('paid');
  });

  it('keeps the later stage of two events in the same millisecond, whatever order they come in', () => {
    const paid = applyPayment(order, paymentEvent('payment.paid', 'paid', later(1000), later(1000))).order;
    expect(applyPayment(paid, paymentEvent('payment.started', 'open', later(1000))).order.status).toBe('paid');
    const started = applyPayment(order, paymentEvent('payment.started', 'open', later(1000))).order;
    expect(applyPayment(started, paymentEvent('payment.paid', 'paid', later(1000), later(1000))).order.status).toBe('paid');
  });

  it('never moves a paid order back, even for a later event', () => {
    const paid = applyPayment(order, paymentEvent('payment.paid', 'paid', later(1000), later(1000))).order;
    expect(applyPayment(paid, paymentEvent('payment.expired', 'expired', later(5000))).order.status).toBe('paid');
  });
});

describe('erasure event', () => {
  it('carries ids only, with a deterministic id', () => {
    const event = customerErasedEvent(
      { id: 'cus_1', accountId: 'acct_1', livemode: true },
      [
        { id: 'pay_1', emailRevision: 0 },
        { id: 'pay_2', emailRevision: 2 },
      ],
      t0,
    );
    expect(event).toEqual({
      id: 'cus_1.erased',
      type: 'customer.erased',
      occurredAt: t0.getTime(),
      accountId: 'acct_1',
      livemode: true,
      customerId: 'cus_1',
      paymentIds: ['pay_1', 'pay_2'],
      emailRevisions: { pay_1: 0, pay_2: 2 },
    });
  });
});

describe('page size', () => {
  it('clamps to 1…100 with 20 for a missing limit', () => {
    expect([clampLimit(0), clampLimit(-5), clampLimit(1), clampLimit(100), clampLimit(1000), clampLimit(2.5)]).toEqual([
      20, 1, 1, 100, 100, 20,
    ]);
  });
});
