import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import { hostedView, type HostedView } from '../domain/hosted-view.ts';
import type { Caller, CheckoutDependencies } from './dependencies.ts';
import { getCheckoutSession } from './get-checkout-session.ts';
import { markProviderReached } from './mark-provider-reached.ts';
import { simulatePayment } from './simulate-payment.ts';
import { startCheckoutSession, type StartRequest } from './start-checkout-session.ts';

/**
 * The buyer's side of a session (the hosted page, no merchant key): each verb finds the session by its
 * id, then runs the merchant's own use case in the session's account and mode, so the rules and
 * errors are the same ones, and answers with the buyer's view of that session only.
 */
async function callerFor(deps: CheckoutDependencies, id: string, requestId: string): Promise<Caller> {
  const scope = isId('payment', id) ? await deps.sessions.scopeOf(id) : null;
  if (!scope) throw new ApiError('not_found', 'No such checkout session.');
  return { accountId: scope.accountId, livemode: scope.livemode, requestId };
}

export async function getHostedSession(deps: CheckoutDependencies, id: string, requestId: string): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  return hostedView(await getCheckoutSession(deps, caller, id), deps.providers);
}

/**
 * Starts as the API's start does, with the account as the gateway passed it at create (the page has
 * no fresher snapshot). A session made before the gateway passed it cannot be started here.
 */
export async function startHostedSession(
  deps: CheckoutDependencies,
  id: string,
  request: StartRequest,
  requestId: string,
): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  const session = await getCheckoutSession(deps, caller, id);
  if (session.accountFeeBps === null) throw new ApiError('unavailable');
  const started = await startCheckoutSession(deps, caller, id, request, {
    payoutWallet: session.accountPayoutWallet,
    feeBps: session.accountFeeBps,
  });
  return hostedView(started.session, deps.providers);
}

export async function reachHostedProvider(
  deps: CheckoutDependencies,
  id: string,
  provider: string,
  requestId: string,
): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  return hostedView(await markProviderReached(deps, caller, id, provider), deps.providers);
}

export async function simulateHostedPayment(
  deps: CheckoutDependencies,
  id: string,
  outcome: string,
  requestId: string,
): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  return hostedView(await simulatePayment(deps, caller, id, outcome), deps.providers);
}
