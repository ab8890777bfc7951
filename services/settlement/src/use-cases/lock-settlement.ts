import { ApiError } from '@hc/errors';
import { formatPrice } from '@hc/money';
import { lockedRate, usdValueOf } from '../domain/fx.ts';
import { lockTerms, type LockRequest, type Scope, type SettlementLock } from '../domain/settlement-lock.ts';
import type { SettlementDependencies } from './dependencies.ts';

/**
 * Locks the fee and the order's USD value and assigns the deposit address, once per payment: the
 * first call writes the lock and every later call (also a concurrent one, and one with other terms)
 * returns that same lock. A payment locked by another account or in the other mode is not found.
 */
export async function lockSettlement(deps: SettlementDependencies, scope: Scope, request: LockRequest): Promise<SettlementLock> {
  const terms = lockTerms(request, scope.livemode);
  const existing = await deps.locks.find(scope, terms.paymentId);
  if (existing) return existing;

  const processor = scope.livemode ? deps.processors.live : deps.processors.test;
  // Racing first calls may each allocate an address; only the lock that gets written keeps one.
  // No wallet goes to the processor: it asks where to forward when the money arrives (docs/adr/0081).
  const depositAddress = await processor.allocateDepositAddress({ paymentId: terms.paymentId, feeBps: terms.feeBps });
  const rate = lockedRate(await deps.fx.usdRate(terms.currency));
  const lock = await deps.locks.lockOnce({
    paymentId: terms.paymentId,
    accountId: scope.accountId,
    livemode: scope.livemode,
    depositAddress,
    payoutWallet: terms.payoutWallet,
    feeBps: terms.feeBps,
    amount: formatPrice(terms.amount),
    currency: terms.currency,
    usdRate: rate.toFixed(),
    usdValue: usdValueOf(terms.amount, rate).toFixed(2),
    usdRateSource: deps.fx.name,
    lockedAt: deps.now(),
  });
  // The lock that holds: a concurrent first call may have written before this one (its terms win).
  if (!lock) throw new ApiError('not_found', 'No such payment.');
  return lock;
}
