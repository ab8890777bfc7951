import { describe, expect, it } from '@jest/globals';
import { decodeEvent, PAYMENT_EVENT } from '@hc/events/contracts';
import { webhookEventBody, withoutCustomerDetails } from './webhook-event.ts';
import { webhookPayment } from './webhook-payment.ts';

const source = {
  id: 'pay_1.payment.paid.vrd_1',
  type: 'payment.paid',
  occurredAt: 1795320898999,
  accountId: 'acct_1',
  livemode: false,
  payment: { id: 'pay_1', customerEmail: 'ada@example.com', customerName: null, amount: '40.00', paidAt: 1795320898500 },
};

describe('webhook event bodies', () => {
  it('take created in seconds and the payment in the webhook shape', () => {
    const parsed = decodeEvent(PAYMENT_EVENT, source);
    const payment = { ...webhookPayment(parsed.payment!) };
    const body = webhookEventBody('evt_X', 'payment.paid', Number(parsed.occurredAt), parsed.livemode, payment);
    expect(body).toEqual({ id: 'evt_X', type: 'payment.paid', created: 1795320898, livemode: false, data: { payment } });
    expect(body.data.payment).toMatchObject(source.payment);
    expect(Object.keys(body)).toEqual(['id', 'type', 'created', 'livemode', 'data']);
  });

  it('refuse payloads that are not payment events (the shared decode)', () => {
    expect(() => decodeEvent(PAYMENT_EVENT, { ...source, type: 'session.created' })).toThrow();
    expect(() => decodeEvent(PAYMENT_EVENT, { ...source, payment: null })).toThrow();
    expect(() => decodeEvent(PAYMENT_EVENT, { ...source, livemode: 'no' })).toThrow();
    expect(() => decodeEvent(PAYMENT_EVENT, 'x')).toThrow();
  });

  it('lose the buyer details on erasure, keeping every other field and the key order', () => {
    const body = webhookEventBody('evt_X', 'payment.paid', 0, false, { ...source.payment });
    const scrubbed = withoutCustomerDetails(body);
    expect(scrubbed.data.payment).toEqual({ ...source.payment, customerEmail: null, customerName: null });
    expect(Object.keys(scrubbed.data.payment!)).toEqual(Object.keys(source.payment));
    expect(withoutCustomerDetails(webhookEventBody('evt_P', 'ping', 0, false, null)).data.payment).toBeNull();
  });
});
