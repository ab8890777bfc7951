import { describe, expect, it } from '@jest/globals';
import { expiryFor, hostedPageUrl, shouldExpire, PAYMENT_LIFETIME_MS } from './payment.ts';

describe('payment expiry', () => {
  const createdAt = new Date('2026-01-01T00:00:00Z');
  const expiresAt = expiryFor(createdAt);

  it('is 24 hours after creation', () => {
    expect(expiresAt.getTime() - createdAt.getTime()).toBe(PAYMENT_LIFETIME_MS);
    expect(PAYMENT_LIFETIME_MS).toBe(86_400_000);
  });

  it('applies to unpaid payments from the expiry instant on', () => {
    expect(shouldExpire({ status: 'open', expiresAt }, new Date(expiresAt.getTime() - 1))).toBe(false);
    expect(shouldExpire({ status: 'open', expiresAt }, expiresAt)).toBe(true);
    expect(shouldExpire({ status: 'pending', expiresAt }, new Date(expiresAt.getTime() + 1))).toBe(true);
  });

  it('never touches a finished payment', () => {
    for (const status of ['paid', 'held', 'failed', 'expired'] as const) {
      expect(shouldExpire({ status, expiresAt }, new Date(expiresAt.getTime() + 1))).toBe(false);
    }
  });
});

describe('hosted page', () => {
  it('lives under /pay/{id} of the public address', () => {
    expect(hostedPageUrl('https://pay.example.com/', 'pay_1')).toBe('https://pay.example.com/pay/pay_1');
  });
});
