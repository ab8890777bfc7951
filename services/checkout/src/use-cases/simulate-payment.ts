import { ApiError } from '@hc/errors';
import { SimulatedOutcome, VerdictKind, type Verdict as VerdictMessage } from '@hc/proto/settlement/v1';
import { isFinished, type Payment } from '../domain/payment.ts';
import { declineRefusal, forcedExpiryTransition, type Verdict } from '../domain/payment-transitions.ts';
import { applyVerdict } from './apply-verdict.ts';
import type { Caller, CheckoutDependencies } from './dependencies.ts';
import { getPayment } from './get-payment.ts';

const OUTCOMES: Record<string, SimulatedOutcome> = {
  paid: SimulatedOutcome.PAID,
  underpaid: SimulatedOutcome.UNDERPAID,
  failed: SimulatedOutcome.FAILED,
};

const KINDS: Partial<Record<VerdictKind, Verdict['kind']>> = {
  [VerdictKind.PAID]: 'paid',
  [VerdictKind.HELD]: 'held',
  [VerdictKind.FAILED]: 'failed',
  [VerdictKind.DETAILS]: 'details',
};

export function verdictFromMessage(message: VerdictMessage): Verdict {
  const kind = KINDS[message.kind];
  if (!kind) throw new Error(`settlement sent verdict kind ${message.kind}`);
  const s = message.settlement;
  return {
    id: message.id,
    paymentId: message.paymentId,
    kind,
    holdReason: message.holdReason ?? null,
    holdAcceptable: message.holdAcceptable,
    settlement: {
      coin: s?.coin ?? null,
      valueCoin: s?.valueCoin ?? null,
      merchantReceived: s?.merchantReceived ?? null,
      txidIn: s?.txidIn ?? null,
      txidOut: s?.txidOut ?? null,
      payoutWallet: s?.payoutWallet ?? null,
    },
  };
}

/** Not a settlement outcome: checkout expires the payment itself (simulateExpiry). */
const EXPIRED = 'expired';

/**
 * Test mode: settlement's sandbox processor produces the outcome's arrival, the same settlement checks
 * as Live decide the verdict, and the verdict is applied like any other. A payment ends only once:
 * a finished payment is returned unchanged. An expired started payment can still be paid late
 * (`paid`, `underpaid`), never declined (`409 already_expired`, nothing changes).
 */
export async function simulatePayment(deps: CheckoutDependencies, caller: Caller, id: string, outcome: string): Promise<Payment> {
  return simulateLoadedPayment(deps, caller, await getPayment(deps, caller, id), outcome);
}

/** simulatePayment on a payment already read (found, expired if due). */
export async function simulateLoadedPayment(
  deps: CheckoutDependencies,
  caller: Caller,
  payment: Payment,
  outcome: string,
): Promise<Payment> {
  const id = payment.id;
  if (payment.livemode) throw new ApiError('live_payment');
  if (outcome === EXPIRED) return simulateExpiry(deps, caller, payment);
  // Own keys only: "toString" or "__proto__" are not outcomes.
  const simulated = Object.hasOwn(OUTCOMES, outcome) ? OUTCOMES[outcome] : undefined;
  if (simulated === undefined) throw new ApiError('invalid_outcome', undefined, 'outcome');
  if (isFinished(payment.status)) return payment;
  if (payment.startedAt === null) throw new ApiError('not_started');
  // Refused before settlement is asked: settlement keeps a payment's first simulated outcome, so a
  // decline recorded there would answer every later simulation (a late `paid` included).
  const refused = simulated === SimulatedOutcome.FAILED ? declineRefusal(payment) : undefined;
  if (refused) throw refused;
  const { verdict } = await deps.settlement.simulateOutcome({ paymentId: id, outcome: simulated }, caller);
  if (!verdict) throw new ApiError('internal_error');
  return applyVerdict(deps, caller, verdictFromMessage(verdict));
}

/**
 * Test mode, `expired`: the payment expires now instead of after its lifetime (started or not), so a
 * merchant sees `payment.expired` within seconds and can then simulate a late `paid` or `underpaid`
 * on a started one (the spec's late-payment sequence: the verdict rules let money land on an expired
 * payment). A finished or already expired payment is returned unchanged, as for other outcomes.
 */
async function simulateExpiry(deps: CheckoutDependencies, caller: Caller, payment: Payment): Promise<Payment> {
  const now = deps.now();
  const result = await deps.payments.change(caller, payment.id, now, (current) => forcedExpiryTransition(current, now));
  if (!result) throw new ApiError('not_found', 'No such checkout session.');
  return result.payment;
}
