import { describe, expect, it } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { PaymentEventSchema, PaymentEventTypeSchema } from '@hc/proto/checkout/v1/events';
import { CustomerErasedSchema } from '@hc/proto/customers/v1/events';
import { ContractViolation, CUSTOMER_ERASED, decodeEvent, encodeEvent, PAYMENT_EVENT, PAYMENT_EVENT_TYPES } from './index.ts';

describe('event contracts', () => {
  it('PAYMENT_EVENT_TYPES are the proto enum PaymentEventType, in order, as `payment.<name>`', () => {
    const fromProto = PaymentEventTypeSchema.values
      .filter((v) => v.number !== 0)
      .map((v) => `payment.${v.name.replace('PAYMENT_EVENT_TYPE_', '').toLowerCase()}`);
    expect([...PAYMENT_EVENT_TYPES]).toEqual(fromProto);
  });

  it('decodes the JSON payload as it was before the contract (numbers, nulls): messages already in streams', () => {
    const old = {
      id: 'cus_1.erased',
      type: 'customer.erased',
      occurredAt: 1795320999000,
      accountId: 'acct_1',
      livemode: false,
      customerId: 'cus_1',
      paymentIds: ['pay_1', 'pay_2'],
      emailRevisions: { pay_1: 0, pay_2: 1 },
    };
    const event = decodeEvent(CUSTOMER_ERASED, old);
    expect(event.occurredAt).toBe(1795320999000n);
    expect(event.paymentIds).toEqual(['pay_1', 'pay_2']);
    expect(event.emailRevisions).toEqual({ pay_1: 0, pay_2: 1 });
  });

  it('round-trips through encodeEvent', () => {
    const message = create(CustomerErasedSchema, {
      id: 'cus_1.erased',
      type: 'customer.erased',
      occurredAt: 5n,
      accountId: 'acct_1',
      customerId: 'cus_1',
      paymentIds: ['pay_1'],
    });
    expect(decodeEvent(CUSTOMER_ERASED, JSON.parse(JSON.stringify(encodeEvent(CustomerErasedSchema, message))))).toEqual(message);
  });

  it.each([
    ['not an object', 'customer.erased'],
    ['an array', []],
    ['the wrong type', { id: 'x', type: 'customer.created', occurredAt: 1, accountId: 'a', customerId: 'c' }],
    [
      'a field of the wrong kind',
      { id: 'x', type: 'customer.erased', occurredAt: 1, accountId: 'a', customerId: 'c', paymentIds: 'pay_1' },
    ],
    ['no account', { id: 'x', type: 'customer.erased', occurredAt: 1, accountId: '', customerId: 'c' }],
    ['an empty object', {}],
  ])('refuses %s with ContractViolation', (_, payload) => {
    expect(() => decodeEvent(CUSTOMER_ERASED, payload)).toThrow(ContractViolation);
  });

  it('refuses a payment event without its payment', () => {
    const event = create(PaymentEventSchema, { id: 'pay_1.payment.paid', type: 'payment.paid', occurredAt: 1n, accountId: 'acct_1' });
    expect(() => decodeEvent(PAYMENT_EVENT, encodeEvent(PaymentEventSchema, event))).toThrow('payment is missing');
  });
});
