import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { NO_SETTLEMENT, type Payment } from './payment.ts';
import {
  ARRIVED_AFTER_CANCEL,
  declineRefusal,
  forcedExpiryTransition,
  providerReachedTransition,
  startTransition,
  verdictTransition,
  type StartLock,
  type Verdict,
} from './payment-transitions.ts';

const createdAt = new Date('2026-01-01T00:00:00Z');
const now = new Date('2026-01-01T00:05:00Z');
const lock: StartLock = { depositAddress: '0xdeposit', payoutWallet: '0xwallet', feeBps: 150, usdValue: '12.50' };

function unstarted(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'pay_1',
    accountId: 'acct_1',
    livemode: false,
    status: 'open',
    amount: '12.50',
    currency: 'USD' as Payment['currency'],
    description: 'Mug',
    reference: null,
    customerEmail: null,
    customerRevision: 0,
    metadata: null,
    successUrl: null,
    cancelUrl: null,
    locale: null,
    pageLocale: null,
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
    expect(startTransition(unstarted(), { customerEmail: 'a@example.com', country: 'DE', pageLocale: 'de', lock }, now)).toEqual({
      patch: { startedAt: now, customerEmail: 'a@example.com', customerRevision: 1, country: 'DE', pageLocale: 'de', ...lock },
      event: 'payment.started',
      emailChanged: true,
    });
  });

  it('starting again with the same email and no country changes nothing', () => {
    const started = unstarted({ startedAt: now, customerEmail: 'a@example.com', customerRevision: 1, country: 'DE' });
    expect(startTransition(started, { customerEmail: 'a@example.com', country: null, pageLocale: null, lock: undefined }, now)).toBeNull();
  });

  it('starting again with another email replaces only the email: no payment event, a session.started', () => {
    const started = unstarted({ startedAt: now, customerEmail: 'a@example.com', customerRevision: 1, country: 'DE' });
    expect(startTransition(started, { customerEmail: 'b@example.com', country: null, pageLocale: null, lock: undefined }, now)).toEqual({
      patch: { customerEmail: 'b@example.com', customerRevision: 2, country: 'DE', pageLocale: null },
      event: null,
      emailChanged: true,
    });
  });

  it('a start from the page in another language keeps that language for the receipt; a start over the API keeps the one there is', () => {
    const started = unstarted({ startedAt: now, customerEmail: 'a@example.com', customerRevision: 1, country: 'DE', pageLocale: 'de' });
    expect(startTransition(started, { customerEmail: 'a@example.com', country: null, pageLocale: 'fr', lock: undefined }, now)).toEqual({
      patch: { customerEmail: 'a@example.com', customerRevision: 1, country: 'DE', pageLocale: 'fr' },
      event: null,
      emailChanged: false,
    });
    expect(startTransition(started, { customerEmail: 'a@example.com', country: null, pageLocale: null, lock: undefined }, now)).toBeNull();
  });

  it('refuses a payment that can no longer start, and an unstarted one without a lock', () => {
    const paid = unstarted({ status: 'paid', startedAt: now });
    expect(() => startTransition(paid, { customerEmail: 'a@example.com', country: null, pageLocale: null, lock: undefined }, now)).toThrow(
      new ApiError('already_paid'),
    );
    expect(() =>
      startTransition(unstarted(), { customerEmail: 'a@example.com', country: null, pageLocale: null, lock: undefined }, now),
    ).toThrow(new ApiError('internal_error'));
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

describe('providerReachedTransition (issue 51: a click on a payment that can no longer be paid)', () => {
  const started = (overrides: Partial<Payment> = {}) => unstarted({ startedAt: now, customerEmail: 'a@example.com', ...overrides });

  it('open → pending with the provider; pending may switch provider, the same one changes nothing', () => {
    expect(providerReachedTransition(started(), 'cardrail', now)).toEqual({
      patch: { status: 'pending', provider: 'cardrail' },
      event: null,
    });
    expect(providerReachedTransition(started({ status: 'pending', provider: 'cardrail' }), 'cardrail', now)).toBeNull();
    expect(providerReachedTransition(started({ status: 'pending', provider: 'cardrail' }), 'coinpass', now)?.patch).toEqual({
      status: 'pending',
      provider: 'coinpass',
    });
  });

  it('refuses a canceled, expired or finished payment as start does, instead of changing nothing', () => {
    const cases: [Partial<Payment>, string][] = [
      [{ status: 'expired', canceledAt: now, source: 'payment_link' }, 'canceled'],
      [{ status: 'expired' }, 'expired'],
      [{ status: 'open', expiresAt: now }, 'expired'],
      [{ status: 'paid' }, 'already_paid'],
      [{ status: 'held' }, 'held'],
      [{ status: 'failed' }, 'failed'],
    ];
    for (const [overrides, code] of cases)
      expect(() => providerReachedTransition(started(overrides), 'cardrail', now)).toThrow(new ApiError(code as 'canceled'));
  });
});

describe('verdictTransition on a canceled payment link (issue 51: it can no longer be paid)', () => {
  const settlement = { coin: 'polygon_usdc', valueCoin: '12.125000', merchantReceived: '11.943125', txidIn: '0xin', txidOut: '0xout' };
  const verdict = (kind: Verdict['kind'], overrides: Partial<Verdict> = {}): Verdict => ({
    id: 'vrd_1',
    paymentId: 'pay_1',
    kind,
    holdReason: null,
    holdAcceptable: false,
    settlement: { ...settlement, payoutWallet: '0xwallet' },
    ...overrides,
  });
  const canceled = unstarted({ status: 'expired', startedAt: now, canceledAt: now, source: 'payment_link' });

  it('money that passed every check is held, acceptable, with the cancel as reason: payment.held, never payment.paid', () => {
    expect(verdictTransition(canceled, verdict('paid'), now)).toEqual({
      patch: { status: 'held', holdReason: ARRIVED_AFTER_CANCEL, holdAcceptable: true, settlement, payoutWallet: '0xwallet' },
      event: 'payment.held',
    });
  });

  it("a held verdict stays held, the cancel first in its reason, settlement's acceptability kept", () => {
    for (const holdAcceptable of [true, false]) {
      const transition = verdictTransition(
        canceled,
        verdict('held', { holdReason: '6.06 USDC arrived, 11.25 needed.', holdAcceptable }),
        now,
      );
      expect(transition?.event).toBe('payment.held');
      expect(transition?.patch).toMatchObject({
        status: 'held',
        holdReason: `${ARRIVED_AFTER_CANCEL} 6.06 USDC arrived, 11.25 needed.`,
        holdAcceptable,
      });
    }
  });

  it('a link that was not canceled is paid as before, an expired one included (a late delivery)', () => {
    for (const status of ['open', 'pending', 'expired'] as const)
      expect(verdictTransition(unstarted({ status, startedAt: now }), verdict('paid'), now)?.event).toBe('payment.paid');
  });
});

describe('a decline after expiry (issue 51)', () => {
  it('changes nothing on an expired or canceled payment; ends an open or pending one', () => {
    const decline: Verdict = {
      id: 'vrd_2',
      paymentId: 'pay_1',
      kind: 'failed',
      holdReason: null,
      holdAcceptable: false,
      settlement: { coin: null, valueCoin: null, merchantReceived: null, txidIn: null, txidOut: null, payoutWallet: null },
    };
    expect(verdictTransition(unstarted({ status: 'expired', startedAt: now }), decline, now)).toBeNull();
    expect(verdictTransition(unstarted({ status: 'expired', startedAt: now, canceledAt: now }), decline, now)).toBeNull();
    for (const status of ['open', 'pending'] as const)
      expect(verdictTransition(unstarted({ status, startedAt: now }), decline, now)?.patch).toEqual({ status: 'failed' });
  });

  it('simulate refuses it up front with 409 already_expired, naming a cancel when there was one', () => {
    expect(declineRefusal({ status: 'expired', canceledAt: null })).toMatchObject({
      code: 'already_expired',
      message: expect.stringMatching(/expired/),
    });
    expect(declineRefusal({ status: 'expired', canceledAt: now })).toMatchObject({
      code: 'already_expired',
      message: expect.stringMatching(/canceled/),
    });
    expect(declineRefusal({ status: 'pending', canceledAt: null })).toBeUndefined();
  });
});
