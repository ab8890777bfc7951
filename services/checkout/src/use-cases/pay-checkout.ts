import { ApiError } from '@hc/errors';
import { isId, newId } from '@hc/ids';
import { visitPrice, type Checkout } from '../domain/checkout.ts';
import { expiryFor, UNSTARTED, type Payment } from '../domain/payment.ts';
import { NO_CUSTOMER_DETAILS } from '../domain/order-customer.ts';
import { sessionCreatedEvent } from '../domain/session-events.ts';
import { payableAccount } from './current-account.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/**
 * The buyer's view of a checkout (public): an unknown or malformed id is not_found; a checkout whose
 * account cannot take payments now (suspended, or Live without a payout wallet, as the accounts context has it
 * at this moment) is `unavailable`.
 */
export async function getPublicCheckout(deps: CheckoutDependencies, id: string, requestId: string): Promise<Checkout> {
  const checkout = isId('checkout', id) ? await deps.checkouts.findPublic(id) : null;
  if (!checkout) throw new ApiError('not_found');
  await payableAccount(deps, { accountId: checkout.accountId, livemode: checkout.livemode, requestId });
  return checkout;
}

/**
 * A buyer's visit pays: a new open payment with source `checkout`, the checkout's id and the chosen
 * plan, in the checkout's account and mode. Called from the page's POST only (never a GET), so a
 * reload of the page never makes another payment; the pages service rate-limits it per buyer and checkout.
 * Nothing of the account is copied onto the payment: its start reads the account's wallet and fee
 * from the gateway then (docs/adr/0037), so a checkout made long ago pays the wallet set last.
 */
export async function payCheckout(
  deps: CheckoutDependencies,
  id: string,
  choice: { plan?: number | undefined; amount?: string | undefined },
  requestId: string,
): Promise<Payment> {
  const checkout = await getPublicCheckout(deps, id, requestId);
  const { amount, planLabel } = visitPrice(checkout, choice);
  const createdAt = deps.now();
  const payment: Payment = {
    id: newId('payment', createdAt.getTime()),
    accountId: checkout.accountId,
    livemode: checkout.livemode,
    status: 'open',
    amount,
    currency: checkout.currency,
    description: checkout.description,
    reference: null,
    customerEmail: null,
    metadata: null,
    successUrl: null,
    cancelUrl: null,
    // A checkout visit has no merchant's choice: the buyer's browser decides the page's language.
    locale: null,
    createdAt,
    expiresAt: expiryFor(createdAt),
    ...UNSTARTED,
    source: 'checkout',
    checkoutId: checkout.id,
    planLabel,
    merchantName: checkout.merchantName,
  };
  await deps.payments.insert(payment, sessionCreatedEvent(payment, NO_CUSTOMER_DETAILS));
  return payment;
}
