import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { CheckoutSession } from '../domain/checkout-session.ts';
import { awaitsPayment, hostedView, type HostedView } from '../domain/hosted-view.ts';
import { canTakePayments } from '../domain/start-rules.ts';
import { currentAccount, payableAccount } from './current-account.ts';
import type { Caller, CheckoutDependencies } from './dependencies.ts';
import { getCheckoutSession } from './get-checkout-session.ts';
import { markProviderReached } from './mark-provider-reached.ts';
import { simulatePayment } from './simulate-payment.ts';
import { startCheckoutSession, type StartRequest } from './start-checkout-session.ts';

/**
 * The buyer's side of a session (the hosted page, no merchant key): each verb finds the session by its
 * id, then runs the merchant's own use case in the session's account and mode, so the rules and
 * errors are the same ones, and answers with the buyer's view of that session only. The account is
 * read from the gateway at the moment it matters (docs/adr/0037): a start locks the wallet and fee the
 * merchant set last, and a suspended account's buyers can neither start, go to a provider nor end a
 * Test payment (`unavailable`). A payment already on its way is left to settle.
 */
async function callerFor(deps: CheckoutDependencies, id: string, requestId: string): Promise<Caller> {
  const scope = isId('payment', id) ? await deps.sessions.scopeOf(id) : null;
  if (!scope) throw new ApiError('not_found', 'No such checkout session.');
  return { accountId: scope.accountId, livemode: scope.livemode, requestId };
}

/** `unavailable` unless the account can take payments now; a finished payment is left to its own rules. */
async function refuseUnlessPayable(deps: CheckoutDependencies, caller: Caller, session: CheckoutSession): Promise<void> {
  if (awaitsPayment(session)) await payableAccount(deps, caller);
}

export async function getHostedSession(deps: CheckoutDependencies, id: string, requestId: string): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  const session = await getCheckoutSession(deps, caller, id);
  // Only a session the buyer may still act on needs the account (a finished one reads without the gateway).
  const unavailable = awaitsPayment(session) && !canTakePayments(caller.livemode, await currentAccount(deps, caller));
  return hostedView(session, deps.providers, unavailable);
}

/** Starts as the API's start does, with the account as the gateway has it now (never as it was at create). */
export async function startHostedSession(
  deps: CheckoutDependencies,
  id: string,
  request: StartRequest,
  requestId: string,
): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  const started = await startCheckoutSession(deps, caller, id, request, await currentAccount(deps, caller));
  return hostedView(started.session, deps.providers);
}

export async function reachHostedProvider(
  deps: CheckoutDependencies,
  id: string,
  provider: string,
  requestId: string,
): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  await refuseUnlessPayable(deps, caller, await getCheckoutSession(deps, caller, id));
  return hostedView(await markProviderReached(deps, caller, id, provider), deps.providers);
}

export async function simulateHostedPayment(
  deps: CheckoutDependencies,
  id: string,
  outcome: string,
  requestId: string,
): Promise<HostedView> {
  const caller = await callerFor(deps, id, requestId);
  // A Live payment is simulatePayment's live_payment, whatever the account.
  if (!caller.livemode) await refuseUnlessPayable(deps, caller, await getCheckoutSession(deps, caller, id));
  return hostedView(await simulatePayment(deps, caller, id, outcome), deps.providers);
}
