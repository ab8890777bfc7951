import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { readCatalogue } from '@hc/i18n';
import { startProblem, successRedirect } from './outcome.ts';

const english = readCatalogue(join(import.meta.dirname, '..', '..', 'locales'), 'en');

describe('successRedirect', () => {
  it('fills {PAYMENT_ID} and {REFERENCE} percent-encoded, every occurrence', () => {
    const url = successRedirect({
      id: 'pay_01ABC',
      reference: 'ORD 7/ü&x=1',
      successUrl: 'https://shop.example/ok?p={PAYMENT_ID}&r={REFERENCE}&again={PAYMENT_ID}',
    });
    expect(url).toBe('https://shop.example/ok?p=pay_01ABC&r=ORD%207%2F%C3%BC%26x%3D1&again=pay_01ABC');
  });

  it('fills placeholders whose braces are percent-encoded, as in a path', () => {
    expect(
      successRedirect({ id: 'pay_1', reference: 'R 1', successUrl: 'https://shop.example/paid/%7BPAYMENT_ID%7D/%7bREFERENCE%7d' }),
    ).toBe('https://shop.example/paid/pay_1/R%201');
  });

  it('takes a reference that looks like a replacement pattern literally', () => {
    expect(successRedirect({ id: 'pay_1', reference: "$&$'", successUrl: 'https://shop.example/?r={REFERENCE}' })).toBe(
      `https://shop.example/?r=${encodeURIComponent("$&$'")}`,
    );
  });

  it('fills a missing reference as empty and gives no redirect without a success_url', () => {
    expect(successRedirect({ id: 'pay_1', reference: null, successUrl: 'https://shop.example/{REFERENCE}' })).toBe('https://shop.example/');
    expect(successRedirect({ id: 'pay_1', reference: 'R', successUrl: null })).toBeNull();
  });
});

describe('startProblem', () => {
  it('explains each start error in words, pointing at the field to fix', () => {
    expect(startProblem('invalid_email')).toMatchObject({ field: 'email', retry: false });
    expect(startProblem('no_providers')).toMatchObject({ field: 'country', retry: false });
    expect(startProblem('network_unavailable')).toMatchObject({ field: null, retry: true });
    expect(english[startProblem('network_unavailable').messageKey]).toMatch(/Nothing was charged/);
  });

  it('never shows an error code to the buyer', () => {
    for (const code of ['invalid_email', 'invalid_country', 'no_providers', 'network_unavailable', 'unavailable', 'internal_error']) {
      expect(english[startProblem(code).messageKey]).not.toContain('_');
    }
  });
});
