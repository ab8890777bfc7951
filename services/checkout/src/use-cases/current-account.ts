import { ApiError } from '@hc/errors';
import { paymentRefusal } from '../domain/start-rules.ts';
import type { AccountSnapshot } from './create-payment.ts';
import type { Caller, CheckoutDependencies } from './dependencies.ts';

/**
 * The account as the accounts context, which owns it, has it now: payout wallet, fee and whether it is
 * suspended. Read on every buyer action that could start or move a payment, never cached, so a wallet
 * change or a suspension applies to the very next one (docs/adr/0037). An account accounts does not
 * know cannot take payments (`unavailable`); an unreachable accounts service is `service_unavailable` (retry).
 */
export async function currentAccount(deps: CheckoutDependencies, caller: Caller): Promise<AccountSnapshot> {
  const { account } = await deps.accounts.getAccount({}, caller).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'not_found')
      throw new ApiError('unavailable', 'The accounts context knows no such account.');
    throw error;
  });
  if (!account) throw new ApiError('internal_error');
  return {
    payoutWallet: account.payoutWallet ?? null,
    feeBps: account.feeBps,
    merchantName: account.name,
    // Anything but active (a status added later included) takes no payments.
    suspended: account.status !== 'active',
  };
}

/** The current account, or `unavailable` when it cannot take a payment in the caller's mode now. */
export async function payableAccount(deps: CheckoutDependencies, caller: Caller): Promise<AccountSnapshot> {
  const account = await currentAccount(deps, caller);
  const refusal = paymentRefusal(caller.livemode, account);
  if (refusal) throw refusal;
  return account;
}
