import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { Payment } from '../domain/payment.ts';
import { awaitsPayment, hostedView, type HostedView } from '../domain/hosted-view.ts';
import { canTakePayments } from '../domain/start-rules.ts';
import { currentAccount, payableAccount } from './current-account.ts';
import type { Caller, CheckoutDependencies } from './dependencies.ts';
import { expireIfDue } from './get-payment.ts';
import { markProviderReachedOn } from './mark-provider-reached.ts';
import { simulateLoadedPayment } from './simulate-payment.ts';
import { startLoadedPayment, type StartRequest } from './start-payment.ts';

/**
 * The buyer's side of a session (the hosted page, no merchant key): each verb finds the session by its
 * id, then runs the merchant's own use case in the session's account and mode, so the rules and
 * errors are the same ones, and answers with the buyer's view of that session only. The account is
 * read from the gateway at the moment it matters (docs/adr/0037): a start locks the wallet and fee the
 * merchant set last, and a suspended account's buyers can neither start, go to a provider nor end a
 * Test payment (`unavailable`). A payment already on its way is left to settle.
 */
interface BuyerRead {
  readonly caller: Caller;
  readonly payment: Payment;
}

/**
 * The buyer's one read: the session by its id alone, which names its own account and mode (the
 * caller every use case then runs as), expired first if due, as any read answers it.
 */
async function readForBuyer(deps: CheckoutDependencies, id: string, requestId: string): Promise<BuyerRead> {
  const found = isId('payment', id) ? await deps.payments.findForBuyer(id) : null;
  if (!found) throw new ApiError('not_found', 'No such checkout session.');
  const caller: Caller = { accountId: found.accountId, livemode: found.livemode, requestId };
  return { caller, payment: await expireIfDue(deps, caller, found) };
}

/** `unavailable` unless the account can take payments now; a finished payment is left to its own rules. */
async function refuseUnlessPayable(deps: CheckoutDependencies, caller: Caller, payment: Payment): Promise<void> {
  if (awaitsPayment(payment)) await payableAccount(deps, caller);
}

export async function getHostedSession(deps: CheckoutDependencies, id: string, requestId: string): Promise<HostedView> {
  const { caller, payment } = await readForBuyer(deps, id, requestId);
  // Only a session the buyer may still act on needs the account (a finished one reads without the gateway).
  const unavailable = awaitsPayment(payment) && !canTakePayments(caller.livemode, await currentAccount(deps, caller));
  return hostedView(payment, deps.providers, unavailable);
}

/**
 * Starts as the API's start does, with the account as the accounts context has it now (never as it was at
 * create), on the page's one read. The page offers a start only before the buyer went to a provider:
 * once the payment is pending, a start (a stale tab, a second click) changes nothing and answers the
 * payment as it is, so the page shows where it stands (the API's start still restarts a pending one).
 */
export async function startHostedSession(
  deps: CheckoutDependencies,
  id: string,
  request: StartRequest,
  requestId: string,
): Promise<HostedView> {
  const { caller, payment } = await readForBuyer(deps, id, requestId);
  if (payment.status === 'pending' && payment.canceledAt === null) {
    const unavailable = !canTakePayments(caller.livemode, await currentAccount(deps, caller));
    return hostedView(payment, deps.providers, unavailable);
  }
  const started = await startLoadedPayment(deps, caller, payment, request, await currentAccount(deps, caller));
  return hostedView(started.payment, deps.providers);
}

export async function reachHostedProvider(
  deps: CheckoutDependencies,
  id: string,
  provider: string,
  requestId: string,
): Promise<HostedView> {
  const { caller, payment } = await readForBuyer(deps, id, requestId);
  await refuseUnlessPayable(deps, caller, payment);
  return hostedView(await markProviderReachedOn(deps, caller, payment, provider), deps.providers);
}

export async function simulateHostedPayment(
  deps: CheckoutDependencies,
  id: string,
  outcome: string,
  requestId: string,
): Promise<HostedView> {
  const { caller, payment } = await readForBuyer(deps, id, requestId);
  // A Live payment is simulatePayment's live_payment, whatever the account.
  if (!caller.livemode) await refuseUnlessPayable(deps, caller, payment);
  return hostedView(await simulateLoadedPayment(deps, caller, payment, outcome), deps.providers);
}
