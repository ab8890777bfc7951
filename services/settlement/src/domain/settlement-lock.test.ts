import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { lockTerms, type LockRequest } from './settlement-lock.ts';

const base: LockRequest = { paymentId: newId('payment'), amount: '10.00', currency: 'EUR', payoutWallet: '0xwallet', feeBps: 150 };

function failure(request: Partial<LockRequest>, livemode = false): { code: string; field: string | undefined } {
  try {
    lockTerms({ ...base, ...request }, livemode);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, field: error.field };
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('lock terms', () => {
  it('keep what the caller sent', () => {
    const terms = lockTerms(base, true);
    expect({ ...terms, amount: terms.amount.toFixed(2) }).toEqual({ ...base, amount: '10.00' });
  });

  it('allow no payout wallet in Test mode only', () => {
    expect(lockTerms({ ...base, payoutWallet: undefined }, false).payoutWallet).toBeNull();
    expect(failure({ payoutWallet: undefined }, true)).toEqual({ code: 'unavailable', field: 'payout_wallet' });
  });

  it('accept fees from 0 to 10000 bps', () => {
    expect(lockTerms({ ...base, feeBps: 0 }, false).feeBps).toBe(0);
    expect(lockTerms({ ...base, feeBps: 10_000 }, false).feeBps).toBe(10_000);
  });

  it.each([
    ['payment_id', { paymentId: 'cus_01JD3' }],
    ['payment_id', { paymentId: '' }],
    ['amount', { amount: '0' }],
    ['amount', { amount: '0.00' }],
    ['amount', { amount: '-1.00' }],
    ['amount', { amount: '1.001' }],
    ['amount', { amount: '1e3' }],
    ['amount', { amount: '' }],
    ['currency', { currency: 'JPY' }],
    ['currency', { currency: 'eur' }],
    ['fee_bps', { feeBps: -1 }],
    ['fee_bps', { feeBps: 10_001 }],
    ['fee_bps', { feeBps: 1.5 }],
    ['payout_wallet', { payoutWallet: '' }],
    ['payout_wallet', { payoutWallet: '0x wallet' }],
  ])('refuse a bad %s (%j)', (field, request) => {
    expect(failure(request)).toEqual({ code: 'invalid_request', field });
  });
});
