import { describe, expect, it } from '@jest/globals';
import { parseSourcePaymentEvent, webhookEventBody, withoutCustomerDetails } from './webhook-event.ts';

const source = {
  id: 'pay_1.payment.paid.vrd_1',
  type: 'payment.paid',
  occurredAt: 1795320898999,
  accountId: 'acct_1',
  livemode: false,
  payment: { id: 'pay_1', customerEmail: 'ada@example.com', customerName: null, amount: '40.00', paidAt: 1795320898500 },
};

describe('webhook event bodies', () => {
  it('take created in seconds and the snapshot as received', () => {
    const parsed = parseSourcePaymentEvent(source)!;
    const body = webhookEventBody('evt_X', parsed.type, parsed.occurredAt, parsed.livemode, { ...parsed.payment });
    expect(body).toEqual({ id: 'evt_X', type: 'payment.paid', created: 1795320898, livemode: false, data: { payment: source.payment } });
    expect(Object.keys(body)).toEqual(['id', 'type', 'created', 'livemode', 'data']);
  });

  it('refuse payloads that are not payment events', () => {
    expect(parseSourcePaymentEvent({ ...source, type: 'session.created' })).toBeNull();
    expect(parseSourcePaymentEvent({ ...source, payment: null })).toBeNull();
    expect(parseSourcePaymentEvent({ ...source, livemode: 'no' })).toBeNull();
    expect(parseSourcePaymentEvent('x')).toBeNull();
  });

  it('lose the buyer details on erasure, keeping every other field and the key order', () => {
    const body = webhookEventBody('evt_X', 'payment.paid', 0, false, { ...source.payment });
    const scrubbed = withoutCustomerDetails(body);
    expect(scrubbed.data.payment).toEqual({ ...source.payment, customerEmail: null, customerName: null });
    expect(Object.keys(scrubbed.data.payment!)).toEqual(Object.keys(source.payment));
    expect(withoutCustomerDetails(webhookEventBody('evt_P', 'ping', 0, false, null)).data.payment).toBeNull();
  });
});
