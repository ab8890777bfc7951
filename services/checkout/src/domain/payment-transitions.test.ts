import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { NO_SETTLEMENT, type CheckoutSession } from './checkout-session.ts';
import { forcedExpiryTransition, startTransition, type StartLock } from './payment-transitions.ts';

const createdAt = new Date('2026-01-01T00:00:00Z');
const now = new Date('2026-01-01T00:05:00Z');
const lock: StartLock = { depositAddress: '0xdeposit', payoutWallet: '0xwallet', feeBps: 150, usdValue: '12.50' };

function unstarted(overrides: Partial<CheckoutSession> = {}): CheckoutSession {
  return {
    id: 'pay_1',
    accountId: 'acct_1',
    livemode: false,
    status: 'open',
    amount: '12.50',
    currency: 'USD' as CheckoutSession['currency'],
    description: 'Mug',
    reference: null,
    customerEmail: null,
    customerRevision: 0,
    metadata: null,
    successUrl: null,
    cancelUrl: null,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 86_400_000),
    startedAt: null,
    country: null,
    provider: null,
    paidAt: null,
    holdReason: null,
    holdAcceptable: false,
    canceledAt: null,
    acceptedAt: null,
    source: 'api',
    customerName: null,
    memo: null,
    checkoutId: null,
    planLabel: null,
    merchantName: null,
    feeBps: null,
    depositAddress: null,
    payoutWallet: null,
    usdValue: null,
    settlement: NO_SETTLEMENT,
    ...overrides,
  };
}

describe('startTransition', () => {
  it('first start: sets started_at, the email and country and the lock, publishes payment.started', () => {
    expect(startTransition(unstarted(), { customerEmail: 'a@example.com', country: 'DE', lock }, now)).toEqual({
      patch: { startedAt: now, customerEmail: 'a@example.com', customerRevision: 1, country: 'DE', ...lock },
      event: 'payment.started',
      emailChanged: true,
    });
  });

  it('starting again with the same email and no country changes nothing', () => {
    const started = unstarted({ startedAt: now, customerEmail: 'a@example.com', customerRevision: 1, country: 'DE' });
    expect(startTransition(started, { customerEmail: 'a@example.com', country: null, lock: undefined }, now)).toBeNull();
  });

  it('starting again with another email replaces only the email: no payment event, a session.started', () => {
    const started = unstarted({ startedAt: now, customerEmail: 'a@example.com', customerRevision: 1, country: 'DE' });
    expect(startTransition(started, { customerEmail: 'b@example.com', country: null, lock: undefined }, now)).toEqual({
      patch: { customerEmail: 'b@example.com', customerRevision: 2, country: 'DE' },
      event: null,
      emailChanged: true,
    });
  });

  it('refuses a payment that can no longer start, and an unstarted one without a lock', () => {
    const paid = unstarted({ status: 'paid', startedAt: now });
    expect(() => startTransition(paid, { customerEmail: 'a@example.com', country: null, lock: undefined }, now)).toThrow(
      new ApiError('already_paid'),
    );
    expect(() => startTransition(unstarted(), { customerEmail: 'a@example.com', country: null, lock: undefined }, now)).toThrow(
      new ApiError('internal_error'),
    );
  });
});

describe('forcedExpiryTransition (simulate expired)', () => {
  it('expires an open or pending payment now, with payment.expired, moving expires_at to now', () => {
    for (const status of ['open', 'pending'] as const) {
      expect(forcedExpiryTransition(unstarted({ status }), now)).toEqual({
        patch: { status: 'expired', expiresAt: now },
        event: 'payment.expired',
      });
    }
  });

  it('keeps an expires_at already past, and leaves finished or expired payments alone', () => {
    const past = new Date(now.getTime() - 1000);
    expect(forcedExpiryTransition(unstarted({ expiresAt: past }), now)?.patch).toEqual({ status: 'expired', expiresAt: past });
    for (const status of ['paid', 'held', 'failed', 'expired'] as const)
      expect(forcedExpiryTransition(unstarted({ status }), now)).toBeNull();
  });
});
