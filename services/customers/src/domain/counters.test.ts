import { describe, expect, it } from '@jest/globals';
import { addSpent, withOrderAdded, withOrderRemoved, withPaymentPaid } from './counters.ts';
import type { CustomerCounters } from './customer.ts';

const empty: CustomerCounters = { ordersCount: 0, paidOrdersCount: 0, spent: {}, lastOrderAt: null };
const jan = new Date('2026-01-01T00:00:00Z');
const feb = new Date('2026-02-01T00:00:00Z');

describe('spent', () => {
  it('adds exactly, per currency, as two-decimal strings', () => {
    const spent = addSpent(addSpent(addSpent({}, 'USD', '0.10'), 'USD', '0.20'), 'EUR', '5');
    expect(spent).toEqual({ USD: '0.30', EUR: '5.00' });
  });

  it('drops a currency whose sum returns to zero and refuses negative sums', () => {
    expect(addSpent({ USD: '10.00', EUR: '1.00' }, 'USD', '-10.00')).toEqual({ EUR: '1.00' });
    expect(() => addSpent({ USD: '1.00' }, 'USD', '-2')).toThrow(/negative/);
  });
});

describe('orders attached to and moved away from a customer', () => {
  it('counts an unpaid order once and keeps the latest creation', () => {
    const one = withOrderAdded(empty, { paid: false, paidAmount: '0.00', currency: 'USD', createdAt: feb });
    const two = withOrderAdded(one, { paid: false, paidAmount: '0.00', currency: 'USD', createdAt: jan });
    expect(two).toEqual({ ordersCount: 2, paidOrdersCount: 0, spent: {}, lastOrderAt: feb });
  });

  it('carries a paid order over with its paid amount (paid before it had a customer)', () => {
    const paid = { paid: true, paidAmount: '80.00', currency: 'EUR', createdAt: jan };
    expect(withOrderAdded(empty, paid)).toEqual({ ordersCount: 1, paidOrdersCount: 1, spent: { EUR: '80.00' }, lastOrderAt: jan });
  });

  it('removes exactly what the order added', () => {
    const paid = { paid: true, paidAmount: '40.00', currency: 'EUR', createdAt: feb };
    const before: CustomerCounters = { ordersCount: 2, paidOrdersCount: 2, spent: { EUR: '50.00' }, lastOrderAt: feb };
    expect(withOrderRemoved(before, paid, jan)).toEqual({ ordersCount: 1, paidOrdersCount: 1, spent: { EUR: '10.00' }, lastOrderAt: jan });
  });

  it('refuses to remove an order that was never counted', () => {
    expect(() => withOrderRemoved(empty, { paid: false, paidAmount: '0.00', currency: 'USD', createdAt: jan }, null)).toThrow();
  });
});

describe('payments paid', () => {
  const oneOrder: CustomerCounters = { ordersCount: 1, paidOrdersCount: 0, spent: {}, lastOrderAt: jan };

  it('count the order once however many payments of it are paid, and add every amount', () => {
    const first = withPaymentPaid(oneOrder, 'USD', '40.00', false);
    const second = withPaymentPaid(first, 'USD', '40.00', true);
    expect(second).toEqual({ ...oneOrder, paidOrdersCount: 1, spent: { USD: '80.00' } });
  });
});
