import { describe, expect, it } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { PaymentEventSchema } from '@hc/proto/checkout/v1/events';
import { PaymentSchema } from '@hc/proto/checkout/v1/payment';
import { receiptsSent, DEFAULT_SETTINGS, alertRecipient } from './settings.ts';
import { utcWords, wantedMails } from './payment-mails.ts';
import { normalEmailAddress } from '@hc/conversions';

const payment = create(PaymentSchema, { id: 'pay_1', expiresAt: 2_000n, paidAt: 1_000n, amount: '1.00', currency: 'USD' });
const event = (type: string, livemode: boolean, paidAt = 1_000n) =>
  create(PaymentEventSchema, { id: `pay_1.${type}.v`, type, livemode, occurredAt: paidAt, payment: { ...payment, paidAt } });

describe('which mails a payment event causes', () => {
  it('paid: one receipt per payment (keyed by payment, not event); Live and past expiry: a late alert too', () => {
    expect(wantedMails(event('payment.paid', false), payment)).toEqual([{ kind: 'receipt', dedupeKey: 'receipt:pay_1' }]);
    const late = event('payment.paid', true, 3_000n);
    expect(wantedMails(late, late.payment!)).toEqual([
      { kind: 'receipt', dedupeKey: 'receipt:pay_1' },
      { kind: 'late_payment', dedupeKey: 'late_payment:pay_1' },
    ]);
    // A Test payment paid late alerts nobody: Test money is not real.
    const testLate = event('payment.paid', false, 3_000n);
    expect(wantedMails(testLate, testLate.payment!)).toHaveLength(1);
  });

  it('held: one alert per held event; other types: nothing', () => {
    expect(wantedMails(event('payment.held', false), payment)).toEqual([
      { kind: 'payment_held', dedupeKey: 'payment_held:pay_1.payment.held.v' },
    ]);
    for (const type of ['payment.started', 'payment.updated', 'payment.failed', 'payment.expired'])
      expect(wantedMails(event(type, true), payment)).toEqual([]);
  });
});

describe('settings', () => {
  it('receipts: Live by default, Test only when turned on, none when receipts are off', () => {
    expect(receiptsSent(DEFAULT_SETTINGS, true)).toBe(true);
    expect(receiptsSent(DEFAULT_SETTINGS, false)).toBe(false);
    expect(receiptsSent({ ...DEFAULT_SETTINGS, testReceiptsEnabled: true }, false)).toBe(true);
    expect(receiptsSent({ ...DEFAULT_SETTINGS, receiptsEnabled: false, testReceiptsEnabled: true }, false)).toBe(false);
  });

  it('alerts go to the alert address when their kind is on', () => {
    const settings = { ...DEFAULT_SETTINGS, alertAddress: 'ops@shop.example', alertLatePayment: false };
    expect(alertRecipient(settings, 'payment_held')).toBe('ops@shop.example');
    expect(alertRecipient(settings, 'late_payment')).toBeNull();
    expect(alertRecipient(DEFAULT_SETTINGS, 'payment_held')).toBeNull();
  });

  it('an alert address is one plain mailbox: no header injection, no display name', () => {
    expect(normalEmailAddress(' Ops@Shop.Example ')).toBe('ops@shop.example');
    for (const bad of [
      'ops@shop.example\r\nBcc: x@y.z',
      'Ops <ops@shop.example>',
      'ops@',
      'a b@c.de',
      `${'a'.repeat(250)}@b.cd`,
      'ops@[127.0.0.1]',
      'ops@shop.example>',
    ])
      expect(normalEmailAddress(bad)).toBeUndefined();
  });
});

it('dates in UTC words', () => {
  expect(utcWords(Date.UTC(2026, 10, 25, 1, 5))).toBe('25 Nov 2026, 01:05 UTC');
});
