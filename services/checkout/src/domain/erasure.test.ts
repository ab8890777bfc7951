import { describe, expect, it } from '@jest/globals';
import { erasedEventPayload } from './erasure.ts';
import { NO_CUSTOMER_DETAILS } from './order-customer.ts';

describe('erasedEventPayload', () => {
  it('removes the email and details from every kind of checkout event, keeping the rest', () => {
    expect(
      erasedEventPayload({
        type: 'payment.paid',
        id: 'e1',
        payment: { id: 'pay_1', amount: '1.00', customerEmail: 'a@b.co', customerName: null },
      }),
    ).toEqual({
      type: 'payment.paid',
      id: 'e1',
      payment: { id: 'pay_1', amount: '1.00', customerEmail: null, customerName: null },
    });
    expect(
      erasedEventPayload({
        type: 'session.created',
        session: { id: 'pay_1', customerEmail: 'a@b.co' },
        customer: { ...NO_CUSTOMER_DETAILS, name: 'Ada', phone: '1' },
      }),
    ).toEqual({ type: 'session.created', session: { id: 'pay_1', customerEmail: null }, customer: NO_CUSTOMER_DETAILS });
    expect(erasedEventPayload({ type: 'session.started', sessionId: 'pay_1', customerEmail: 'a@b.co', revision: 2 })).toEqual({
      type: 'session.started',
      sessionId: 'pay_1',
      customerEmail: null,
      revision: 2,
    });
  });

  it('leaves payloads of unknown shape alone', () => {
    expect(erasedEventPayload(null)).toBeNull();
    expect(erasedEventPayload('text')).toBe('text');
  });
});
