import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { newPaymentFields, type NewPaymentRequest } from './new-payment.ts';

const base: NewPaymentRequest = { amount: '10.00', currency: 'USD', description: 'Order 1' };

function failure(request: Partial<NewPaymentRequest>, livemode = false): { code: string; field: string | undefined } {
  try {
    newPaymentFields({ ...base, ...request }, livemode);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, field: error.field };
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('amount', () => {
  it.each([
    ['1', '1.00'],
    ['1.5', '1.50'],
    ['1.00', '1.00'],
    ['100000', '100000.00'],
    ['99999.99', '99999.99'],
  ])('accepts %s as %s', (amount, normalized) => {
    expect(newPaymentFields({ ...base, amount }, false).amount).toBe(normalized);
  });

  it.each(['0.99', '100000.01', '0', '-5.00', '1e3', '1.001', 'ten', '', ' 5', '5,00', '1.', '.50', '+5'])('refuses %j', (amount) => {
    expect(failure({ amount })).toEqual({ code: 'invalid_amount', field: 'amount' });
  });
});

describe('currency', () => {
  it('accepts any letter case and stores upper case', () => {
    expect(newPaymentFields({ ...base, currency: 'eur' }, false).currency).toBe('EUR');
    expect(newPaymentFields({ ...base, currency: 'gBp' }, false).currency).toBe('GBP');
  });
  it.each(['JPY', 'US', '', 'usd '])('refuses %j', (currency) => {
    expect(failure({ currency })).toEqual({ code: 'invalid_currency', field: 'currency' });
  });
});

describe('description', () => {
  it('accepts 120 characters, counting emoji once', () => {
    expect(newPaymentFields({ ...base, description: 'x'.repeat(120) }, false).description).toHaveLength(120);
    expect(newPaymentFields({ ...base, description: '😀'.repeat(120) }, false).description).toBe('😀'.repeat(120));
  });
  it.each(['', '   ', 'x'.repeat(121)])('refuses %j', (description) => {
    expect(failure({ description })).toEqual({ code: 'invalid_description', field: 'description' });
  });
});

describe('reference', () => {
  it('is optional and kept as sent', () => {
    expect(newPaymentFields(base, false).reference).toBeNull();
    expect(newPaymentFields({ ...base, reference: 'ORD-1' }, false).reference).toBe('ORD-1');
  });
  it.each(['', 'r'.repeat(121)])('refuses %j', (reference) => {
    expect(failure({ reference })).toEqual({ code: 'invalid_reference', field: 'reference' });
  });
});

describe('customer_email', () => {
  it('is stored lowercased', () => {
    expect(newPaymentFields({ ...base, customerEmail: 'Buyer@Example.COM' }, false).customerEmail).toBe('buyer@example.com');
  });
  it.each([
    'not-an-email',
    'a@b',
    'a b@c.de',
    '@example.com',
    `${'a'.repeat(250)}@x.io`,
    'a@[127.0.0.1]',
    'a>@example.com',
    'Ann <a@example.com>',
  ])('refuses %j', (customerEmail) => {
    expect(failure({ customerEmail })).toEqual({ code: 'invalid_email', field: 'customer_email' });
  });
});

describe('metadata', () => {
  it('accepts 20 keys of 40 characters with 500-character values', () => {
    const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}`.padStart(40, 'k'), 'v'.repeat(500)]));
    expect(newPaymentFields({ ...base, metadata }, false).metadata).toEqual(metadata);
  });
  it('keeps an empty object distinct from none', () => {
    expect(newPaymentFields({ ...base, metadata: {} }, false).metadata).toEqual({});
    expect(newPaymentFields(base, false).metadata).toBeNull();
  });
  it.each([
    ['21 keys', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']))],
    ['an empty key', { '': 'v' }],
    ['a 41-character key', { ['k'.repeat(41)]: 'v' }],
    ['a key starting with __', { __internal: 'v' }],
    ['a 501-character value', { k: 'v'.repeat(501) }],
  ])('refuses %s', (_label, metadata) => {
    expect(failure({ metadata })).toEqual({ code: 'invalid_metadata', field: 'metadata' });
  });
});

describe('return URLs', () => {
  it('accept http in Test mode and keep placeholders as sent', () => {
    const url = 'http://shop.example/thanks/{PAYMENT_ID}?ref={REFERENCE}';
    expect(newPaymentFields({ ...base, successUrl: url }, false).successUrl).toBe(url);
  });
  it('require https in Live mode', () => {
    expect(failure({ successUrl: 'http://shop.example/ok' }, true)).toEqual({ code: 'invalid_url', field: 'success_url' });
    expect(newPaymentFields({ ...base, cancelUrl: 'https://shop.example/back' }, true).cancelUrl).toBe('https://shop.example/back');
  });
  it.each([
    'ftp://shop.example/x',
    'javascript:alert(1)',
    '/relative/path',
    'shop.example/x',
    'http:/shop.example',
    'https://user:pass@shop.example/x',
    'https://user@shop.example/x',
    `https://shop.example/${'x'.repeat(1000)}`,
    'not a url',
  ])('refuse %j', (cancelUrl) => {
    expect(failure({ cancelUrl })).toEqual({ code: 'invalid_url', field: 'cancel_url' });
  });
  it('accept exactly 1000 characters', () => {
    const url = `https://shop.example/${'x'.repeat(1000 - 'https://shop.example/'.length)}`;
    expect(newPaymentFields({ ...base, successUrl: url }, true).successUrl).toBe(url);
  });
});

describe('locale', () => {
  it('keeps a listed locale in its own spelling, and none when none is sent', () => {
    expect(newPaymentFields({ ...base, locale: 'pt-br' }, false).locale).toBe('pt-BR');
    expect(newPaymentFields({ ...base, locale: 'ar' }, false).locale).toBe('ar');
    expect(newPaymentFields(base, false).locale).toBeNull();
  });

  it.each(['de-AT', 'xx', '', 'en_US', 'zh'])('refuses %j: only the listed locales, nothing guessed', (locale) => {
    expect(failure({ locale })).toEqual({ code: 'invalid_locale', field: 'locale' });
  });
});
