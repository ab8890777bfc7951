import { ApiError } from '@hc/errors';
import type { Payment, PaymentStatus, SettlementFields } from './payment.ts';
import type { PaymentEventType } from './payment-events.ts';
import { startRefusal } from './start-rules.ts';

/**
 * Every status change of a payment, as pure functions: the current payment in, the change and the
 * event it publishes out, or null when nothing changes. The store applies a change under a row lock
 * together with its outbox event, so each transition happens once.
 */
export type PaymentPatch = Partial<Omit<Payment, 'id' | 'accountId' | 'livemode' | 'createdAt' | 'amount' | 'currency'>>;

export interface Transition {
  readonly patch: PaymentPatch;
  /** The event published with the change; null for changes the spec gives no event (open → pending). */
  readonly event: PaymentEventType | null;
  /** The start set or changed the email: also publish the internal `session.started` event. */
  readonly emailChanged?: boolean;
}

/** What settlement decided about a payment. */
export interface Verdict {
  readonly id: string;
  readonly paymentId: string;
  readonly kind: 'paid' | 'held' | 'failed' | 'details';
  readonly holdReason: string | null;
  readonly holdAcceptable: boolean;
  readonly settlement: SettlementFields & { readonly payoutWallet: string | null };
}

// Money can still arrive for an unpaid payment, including an expired one (a late delivery).
const CAN_RECEIVE: readonly PaymentStatus[] = ['open', 'pending', 'expired'];
// A decline ends only a payment still waiting for money: the spec's only moves out of `expired` are a
// late delivery to paid or held, so a decline never rewrites an expiry (issue 51).
const CAN_DECLINE: readonly PaymentStatus[] = ['open', 'pending'];

/**
 * Why money that reached a canceled payment link is held: the merchant withdrew the request, so the
 * order is not an ordinary paid one (spec: a canceled payment "can no longer be paid"). The merchant
 * decides: accept it as paid, or return the money to the buyer (docs/adr/0080).
 */
export const ARRIVED_AFTER_CANCEL =
  'Money arrived after the payment link was canceled. Do not fulfil the order until you have checked with the buyer: ' +
  'accept it as paid to fulfil the order, or return the money to the buyer.';

function settlementPatch(verdict: Verdict): PaymentPatch {
  const { payoutWallet, ...settlement } = verdict.settlement;
  return payoutWallet === null ? { settlement } : { settlement, payoutWallet };
}

function heldTransition(verdict: Verdict, holdReason: string | null, holdAcceptable: boolean): Transition {
  return { patch: { status: 'held', holdReason, holdAcceptable, ...settlementPatch(verdict) }, event: 'payment.held' };
}

export function verdictTransition(payment: Payment, verdict: Verdict, now: Date): Transition | null {
  switch (verdict.kind) {
    case 'paid':
      if (!CAN_RECEIVE.includes(payment.status)) return null;
      // Money on a canceled link is held for the merchant's review, never a paid order (no payment.paid):
      // it passed settlement's checks, so the merchant may accept it.
      if (payment.canceledAt !== null) return heldTransition(verdict, ARRIVED_AFTER_CANCEL, true);
      return {
        patch: { status: 'paid', paidAt: now, holdReason: null, holdAcceptable: false, ...settlementPatch(verdict) },
        event: 'payment.paid',
      };
    case 'held':
      if (!CAN_RECEIVE.includes(payment.status)) return null;
      // Held anyway; on a canceled link the reason says so first, and settlement's evidence decides
      // whether it can be accepted (money that went elsewhere still cannot).
      if (payment.canceledAt !== null)
        return heldTransition(verdict, `${ARRIVED_AFTER_CANCEL} ${verdict.holdReason ?? ''}`.trim(), verdict.holdAcceptable);
      return heldTransition(verdict, verdict.holdReason, verdict.holdAcceptable);
    case 'failed':
      // A decline (Test-mode simulation only) ends a started payment still waiting for money; it never
      // undoes an arrival, an expiry or a cancel (simulate refuses it on an expired payment up front:
      // declineRefusal; this covers a payment that expired between that check and the verdict).
      if (!CAN_DECLINE.includes(payment.status)) return null;
      return { patch: { status: 'failed' }, event: 'payment.failed' };
    case 'details':
      // Late settlement details fill a paid payment; an accepted held payment keeps merchant_received
      // null and gets no payment.updated (spec, state table).
      if (payment.status !== 'paid' || payment.acceptedAt !== null) return null;
      return { patch: settlementPatch(verdict), event: 'payment.updated' };
  }
}

/**
 * Simulate `failed` on a started payment that expired (or was canceled, which reads `expired`): only a
 * late delivery may still move it (to paid or held), so a decline is refused and nothing changes.
 */
export function declineRefusal(payment: Pick<Payment, 'status' | 'canceledAt'>): ApiError | undefined {
  if (payment.status !== 'expired') return undefined;
  return new ApiError(
    'already_expired',
    payment.canceledAt !== null
      ? 'The payment link was canceled: a decline cannot end it; only money arriving late can still change it.'
      : 'The payment has expired: a decline cannot end it; only money arriving late can still change it.',
  );
}

/** Unpaid and past its expiry (by the sweeper or a read). */
export function expiryTransition(payment: Payment, now: Date): Transition | null {
  if ((payment.status !== 'open' && payment.status !== 'pending') || now.getTime() < payment.expiresAt.getTime()) return null;
  return { patch: { status: 'expired' }, event: 'payment.expired' };
}

/**
 * Test mode, simulate `expired`: an unpaid payment expires now, as if its lifetime had run out, with
 * `payment.expired`; expires_at moves to now so the payment reads the same as one the sweeper expired.
 * A finished or already expired payment is left as it is.
 */
export function forcedExpiryTransition(payment: Payment, now: Date): Transition | null {
  if (payment.status !== 'open' && payment.status !== 'pending') return null;
  const expiresAt = now.getTime() < payment.expiresAt.getTime() ? now : payment.expiresAt;
  return { patch: { status: 'expired', expiresAt }, event: 'payment.expired' };
}

/**
 * The buyer reached a provider on the hosted page: open → pending; pending may switch provider. A
 * payment that can no longer be paid (canceled, expired, finished) is refused as a start is (410
 * canceled / expired, 409 already_paid / held / failed), so the page never hands the buyer over to pay
 * it: judged under the row lock, this is what makes a cancel and a click at the same moment end with
 * exactly one winner (issue 51).
 */
export function providerReachedTransition(payment: Payment, provider: string, now: Date): Transition | null {
  if (payment.startedAt === null) throw new ApiError('not_started');
  const refused = startRefusal(payment, now);
  if (refused) throw refused;
  if (payment.status === 'pending' && payment.provider === provider) return null;
  return { patch: { status: 'pending', provider }, event: null };
}

/** The merchant accepts a held payment as paid: only when acceptable; merchant_received stays null. */
export function acceptHeldTransition(payment: Payment, now: Date): Transition {
  if (payment.status !== 'held') throw new ApiError('unavailable', 'Only a held payment can be accepted as paid.');
  if (!payment.holdAcceptable)
    throw new ApiError('unavailable', 'This held payment cannot be accepted: the evidence shows the money went elsewhere.');
  return {
    // hold_reason is null once no longer held (spec: "null otherwise").
    patch: {
      status: 'paid',
      paidAt: now,
      acceptedAt: now,
      holdReason: null,
      holdAcceptable: false,
      settlement: { ...payment.settlement, merchantReceived: null },
    },
    event: 'payment.paid',
  };
}

/** What settlement locked at the first start: the deposit address, the payout wallet, the fee and the USD value. */
export interface StartLock {
  readonly depositAddress: string | null;
  readonly payoutWallet: string | null;
  readonly feeBps: number;
  readonly usdValue: string;
}

/** A start as the buyer asked for it: the (checked) email and country, and the lock when it was unstarted. */
export interface StartRequestFields {
  readonly customerEmail: string;
  readonly country: string | null;
  /** The hosted page's language (a start from the page); null over the API, which keeps the one there is. */
  readonly pageLocale: string | null;
  /** Present when the payment was unstarted when the start was decided (only a first start locks). */
  readonly lock: StartLock | undefined;
}

/**
 * The buyer starts the payment. The first start sets started_at, the email and country and the
 * settlement lock, and publishes payment.started; starting again keeps all of that and only replaces
 * the email (and the country, when one is sent), with no payment event. A change of email also
 * publishes the internal session.started event. A payment that can no longer start is refused.
 */
export function startTransition(current: Payment, start: StartRequestFields, now: Date): Transition | null {
  const refused = startRefusal(current, now);
  if (refused) throw refused;
  const { customerEmail, country, lock } = start;
  const pageLocale = start.pageLocale ?? current.pageLocale;
  const emailChanged = current.startedAt === null || current.customerEmail !== customerEmail;
  const customerRevision = emailChanged ? current.customerRevision + 1 : current.customerRevision;
  if (current.startedAt !== null) {
    return !emailChanged && current.country === (country ?? current.country) && current.pageLocale === pageLocale
      ? null
      : { patch: { customerEmail, customerRevision, country: country ?? current.country, pageLocale }, event: null, emailChanged };
  }
  // started_at is never cleared, so a payment unstarted here was unstarted when `lock` was decided.
  if (!lock) throw new ApiError('internal_error');
  return {
    patch: {
      startedAt: now,
      customerEmail,
      customerRevision,
      country,
      pageLocale,
      depositAddress: lock.depositAddress,
      payoutWallet: lock.payoutWallet,
      feeBps: lock.feeBps,
      usdValue: lock.usdValue,
    },
    event: 'payment.started',
    emailChanged: true,
  };
}
