import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { newCheckoutFields, type Checkout, type NewCheckoutRequest } from '../domain/checkout.ts';
import type { Scope } from '../domain/payment.ts';
import type { AccountSnapshot } from './create-payment.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** Makes a dashboard checkout (`chk_`); every field is checked before the one insert. */
export async function createCheckout(
  deps: CheckoutDependencies,
  scope: Scope,
  request: NewCheckoutRequest,
  account: AccountSnapshot,
): Promise<Checkout> {
  const fields = newCheckoutFields(request, scope.livemode);
  if (scope.livemode && !account.payoutWallet) throw new ApiError('no_payout_wallet');
  const createdAt = deps.now();
  const checkout: Checkout = {
    id: newId('checkout', createdAt.getTime()),
    accountId: scope.accountId,
    livemode: scope.livemode,
    ...fields,
    merchantName: account.merchantName ?? null,
    createdAt,
    archivedAt: null,
  };
  await deps.checkouts.insert(checkout);
  return checkout;
}
