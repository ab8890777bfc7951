import { ApiError } from '@hc/errors';
import { supportedLocale } from '@hc/i18n';
import type { SettlementLock } from '@hc/proto/settlement/v1';
import type { Payment } from '../domain/payment.ts';
import { startTransition } from '../domain/payment-transitions.ts';
import { selectProviders, type ProviderOffer } from '../domain/providers.ts';
import { paymentRefusal, startCountry, startEmail, startRefusal } from '../domain/start-rules.ts';
import type { AccountSnapshot } from './create-payment.ts';
import type { Caller, CheckoutDependencies } from './dependencies.ts';
import { getPayment } from './get-payment.ts';

export interface StartRequest {
  customerEmail?: string | undefined;
  country?: string | undefined;
  /** The hosted page's language (a start from the page): kept for the receipt; one @hc/i18n lists, or ignored. */
  pageLocale?: string | undefined;
}

export interface StartedPayment {
  payment: Payment;
  /** The country sent with this start, uppercased; null when none was sent. */
  country: string | null;
  providers: ProviderOffer[];
}

/**
 * Starts a payment as the buyer would. The first start locks the fee and USD value and assigns the
 * deposit address (settlement), sets `started_at` and publishes `payment.started`; starting again
 * keeps all of that and only replaces the email. Nothing is started when no provider fits. `account`
 * is the account as its owner (the accounts context) has it now: the wallet and fee locked are the ones the
 * merchant set last, whatever the payment was created with (docs/adr/0037).
 */
export async function startPayment(
  deps: CheckoutDependencies,
  scope: Caller,
  id: string,
  request: StartRequest,
  account: AccountSnapshot,
): Promise<StartedPayment> {
  startCountry(request.country); // a bad country is refused before the payment is looked up, as always
  return startLoadedPayment(deps, scope, await getPayment(deps, scope, id), request, account);
}

/**
 * startPayment on a payment already read. `payment` is the caller's read of it (getPayment, or the hosted page's one read): the checks
 * here need no other read, and the change re-judges the row under its lock, so a start racing another
 * start or the expiry sweeper still applies only to the row as it is then (startTransition refuses).
 */
export async function startLoadedPayment(
  deps: CheckoutDependencies,
  scope: Caller,
  payment: Payment,
  request: StartRequest,
  account: AccountSnapshot,
): Promise<StartedPayment> {
  const id = payment.id;
  const country = startCountry(request.country);
  const refusal = startRefusal(payment, deps.now());
  if (refusal) throw refusal;
  const customerEmail = startEmail(payment, request.customerEmail);
  const providers = selectProviders(deps.providers, { id, amount: payment.amount, currency: payment.currency, country });
  if (providers.length === 0) throw new ApiError('no_providers');
  const unavailable = paymentRefusal(scope.livemode, account);
  if (unavailable) throw unavailable;

  // Only a first start locks; settlement is idempotent, so racing first starts get the same lock.
  const lock = payment.startedAt === null ? await lockSettlement(deps, scope, payment, account) : undefined;

  const now = deps.now();
  const startLock = lock && {
    depositAddress: lock.depositAddress ?? null,
    payoutWallet: lock.payoutWallet ?? null,
    feeBps: lock.feeBps,
    usdValue: lock.usdValue,
  };
  const result = await deps.payments.change(scope, id, now, (current) =>
    startTransition(current, { customerEmail, country, pageLocale: supportedLocale(request.pageLocale) ?? null, lock: startLock }, now),
  );
  if (!result) throw new ApiError('not_found', 'No such checkout session.');
  return { payment: result.payment, country, providers };
}

/** Fee and USD value locked and deposit address assigned by settlement; 502 when it does not answer. */
async function lockSettlement(
  deps: CheckoutDependencies,
  caller: Caller,
  payment: Payment,
  account: AccountSnapshot,
): Promise<SettlementLock> {
  const { lock } = await deps.settlement
    .lockSettlement(
      {
        paymentId: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        payoutWallet: account.payoutWallet ?? undefined,
        feeBps: account.feeBps,
      },
      caller,
    )
    .catch((error: unknown) => {
      throw error instanceof ApiError && error.code === 'service_unavailable' ? new ApiError('network_unavailable') : error;
    });
  if (!lock) throw new ApiError('internal_error');
  return lock;
}
