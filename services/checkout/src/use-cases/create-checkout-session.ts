import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { expiryFor, UNSTARTED, type CheckoutSession, type Scope } from '../domain/checkout-session.ts';
import { newSessionFields, type NewSessionRequest } from '../domain/new-session.ts';
import type { CheckoutDependencies } from './dependencies.ts';

export interface AccountSnapshot {
  payoutWallet: string | null;
  feeBps: number;
}

/** Creates an open session. Nothing is charged and no provider is contacted. */
export async function createCheckoutSession(
  deps: CheckoutDependencies,
  scope: Scope,
  request: NewSessionRequest,
  account: AccountSnapshot,
): Promise<CheckoutSession> {
  const fields = newSessionFields(request, scope.livemode);
  if (scope.livemode && !account.payoutWallet) throw new ApiError('no_payout_wallet');
  const createdAt = deps.now();
  const session: CheckoutSession = {
    id: newId('payment', createdAt.getTime()),
    accountId: scope.accountId,
    livemode: scope.livemode,
    status: 'open',
    ...fields,
    createdAt,
    expiresAt: expiryFor(createdAt),
    ...UNSTARTED,
  };
  await deps.sessions.insert(session);
  return session;
}
