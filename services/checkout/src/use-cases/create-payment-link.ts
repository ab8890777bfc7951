import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { UNSTARTED, type CheckoutSession, type Scope } from '../domain/checkout-session.ts';
import { newSessionFields, type NewSessionRequest } from '../domain/new-session.ts';
import { orderCustomer } from '../domain/order-customer.ts';
import { linkCustomerName, linkLifetimeMs, linkMemo } from '../domain/payment-link.ts';
import { sessionCreatedEvent } from '../domain/session-events.ts';
import type { AccountSnapshot } from './create-checkout-session.ts';
import type { CheckoutDependencies } from './dependencies.ts';

export interface NewPaymentLinkRequest extends Omit<NewSessionRequest, 'successUrl' | 'cancelUrl'> {
  customerName?: string | undefined;
  memo?: string | undefined;
  /** `90m`, `24h`, `7d`; absent: 7 days. */
  lifetime?: string | undefined;
}

/**
 * Creates a payment link: an open payment with source `payment_link`, expiring after its own
 * lifetime. Every field is checked before anything is written (one insert with its event).
 */
export async function createPaymentLink(
  deps: CheckoutDependencies,
  scope: Scope,
  request: NewPaymentLinkRequest,
  account: AccountSnapshot,
): Promise<CheckoutSession> {
  const fields = newSessionFields(request, scope.livemode);
  const customerName = linkCustomerName(request.customerName);
  const memo = linkMemo(request.memo);
  const lifetimeMs = linkLifetimeMs(request.lifetime);
  const customer = orderCustomer(request.customerEmail, undefined);
  if (scope.livemode && !account.payoutWallet) throw new ApiError('no_payout_wallet');
  const createdAt = deps.now();
  const link: CheckoutSession = {
    id: newId('payment', createdAt.getTime()),
    accountId: scope.accountId,
    livemode: scope.livemode,
    status: 'open',
    ...fields,
    customerEmail: customer.email,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + lifetimeMs),
    ...UNSTARTED,
    source: 'payment_link',
    customerName,
    memo,
    merchantName: account.merchantName ?? null,
  };
  await deps.sessions.insert(link, sessionCreatedEvent(link, customer.details));
  return link;
}
