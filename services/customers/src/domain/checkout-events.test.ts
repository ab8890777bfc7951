import { describe, expect, it } from '@jest/globals';
import { MalformedEventError, parseCheckoutEvent } from './checkout-events.ts';

// Shaped exactly as docs/events.md documents them.
const created = {
  id: 'pay_1.session.created',
  type: 'session.created',
  occurredAt: 1795320898000,
  accountId: 'acct_1',
  livemode: false,
  session: { id: 'pay_1', amount: '40.00', currency: 'EUR', status: 'open', createdAt: 1795320898000, customerEmail: 'Ada@Example.com' },
  customer: {
    name: 'Ada Lovelace',
    phone: null,
    shippingAddress: { name: 'Ada', line1: '12 St', line2: null, city: 'London', region: null, postalCode: 'SW1Y', country: 'GB' },
    billingAddress: null,
    storeAccount: { platform: 'shopify', storeId: 'shop-42', storeName: null, customerId: '8812' },
  },
};

describe('parseCheckoutEvent', () => {
  it('reads session.created with its customer details, email lowercased', () => {
    const event = parseCheckoutEvent(created);
    expect(event).toMatchObject({
      type: 'session.created',
      accountId: 'acct_1',
      livemode: false,
      session: { id: 'pay_1', amount: '40.00', currency: 'EUR', customerEmail: 'ada@example.com', createdAt: new Date(1795320898000) },
      customer: {
        name: 'Ada Lovelace',
        phone: null,
        billingAddress: null,
        storeAccount: { platform: 'shopify', storeId: 'shop-42', storeName: null, customerId: '8812' },
      },
    });
  });

  it('reads session.started and payment events', () => {
    expect(
      parseCheckoutEvent({
        id: 'pay_1.session.started.2',
        type: 'session.started',
        occurredAt: 1,
        accountId: 'acct_1',
        livemode: true,
        sessionId: 'pay_1',
        customerEmail: 'GRACE@example.com',
        revision: 2,
      }),
    ).toMatchObject({ type: 'session.started', sessionId: 'pay_1', customerEmail: 'grace@example.com', revision: 2 });
    expect(
      parseCheckoutEvent({
        id: 'pay_1.payment.paid.vrd_1',
        type: 'payment.paid',
        occurredAt: 2,
        accountId: 'acct_1',
        livemode: false,
        payment: { id: 'pay_1', amount: '40.00', currency: 'EUR', status: 'paid', paidAt: 2, customerEmail: 'ada@example.com' },
      }),
    ).toEqual({
      id: 'pay_1.payment.paid.vrd_1',
      type: 'payment.paid',
      occurredAt: new Date(2),
      accountId: 'acct_1',
      livemode: false,
      payment: { id: 'pay_1', amount: '40.00', currency: 'EUR', status: 'paid', paidAt: new Date(2) },
    });
  });

  it('skips types it does not read', () => {
    expect(parseCheckoutEvent({ ...created, type: 'session.canceled' })).toBeNull();
  });

  it('treats an empty address and a store account without keys as left out', () => {
    const emptyAddress = { name: null, line1: null, line2: null, city: null, region: null, postalCode: null, country: null };
    const event = parseCheckoutEvent({
      ...created,
      customer: { ...created.customer, shippingAddress: emptyAddress, storeAccount: { platform: 'x' } },
    });
    expect(event).toMatchObject({ customer: { shippingAddress: null, storeAccount: null } });
  });

  it('rejects a known type without the documented shape', () => {
    expect(() => parseCheckoutEvent({ ...created, session: { ...created.session, amount: 40 } })).toThrow(MalformedEventError);
    expect(() =>
      parseCheckoutEvent({
        type: 'session.started',
        id: 'x',
        occurredAt: 1,
        accountId: 'a',
        livemode: false,
        sessionId: 'p',
        customerEmail: 'a@b',
        revision: 0,
      }),
    ).toThrow(MalformedEventError);
    expect(() => parseCheckoutEvent('nope')).toThrow(MalformedEventError);
  });
});
