import { ApiError } from '@hc/errors';
import { formatPrice, isWithin, parsePrice, type Currency } from '@hc/money';
import { newPaymentFields, LIMITS } from './new-payment.ts';

/**
 * Dashboard checkouts (`chk_`): reusable pages a merchant makes once and buyers visit many times. A
 * `page` or `widget` has a fixed price or a range the buyer chooses in; a `pricing_table` has 2 to 4
 * plans. Each visit becomes a payment (source `checkout`). Pure rules; no I/O.
 */
export const CHECKOUT_KINDS = ['page', 'pricing_table', 'widget'] as const;
export type CheckoutKind = (typeof CHECKOUT_KINDS)[number];

export interface Plan {
  readonly label: string;
  /** Decimal string, two decimals. */
  readonly amount: string;
}

export interface Checkout {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly kind: CheckoutKind;
  readonly description: string;
  readonly currency: Currency;
  /** Fixed price (page, widget), or null when the buyer chooses in [minAmount, maxAmount]. */
  readonly amount: string | null;
  readonly minAmount: string | null;
  readonly maxAmount: string | null;
  /** Pricing tables only. */
  readonly plans: readonly Plan[] | null;
  /** Shown to buyers. The account's wallet and fee are read at each start, never kept here (ADR 0037). */
  readonly merchantName: string | null;
  readonly createdAt: Date;
  readonly archivedAt: Date | null;
}

export interface NewCheckoutRequest {
  kind: string;
  description: string;
  currency: string;
  amount?: string | undefined;
  minAmount?: string | undefined;
  maxAmount?: string | undefined;
  plans?: readonly { label: string; amount: string }[] | undefined;
}

export type NewCheckoutFields = Pick<Checkout, 'kind' | 'description' | 'currency' | 'amount' | 'minAmount' | 'maxAmount' | 'plans'>;

const PLAN_LABEL_MAX = 40;

/** An amount by the API's create rules (1.00 to 100000.00, two decimals), refused on `field`. */
function price(raw: string, currency: string, field: string): string {
  try {
    return newPaymentFields({ amount: raw, currency, description: 'x' }, false).amount;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_amount') throw new ApiError('invalid_amount', undefined, field);
    throw error;
  }
}

export function newCheckoutFields(request: NewCheckoutRequest, livemode: boolean): NewCheckoutFields {
  if (!(CHECKOUT_KINDS as readonly string[]).includes(request.kind)) {
    throw new ApiError('invalid_request', 'kind must be page, pricing_table or widget.', 'kind');
  }
  const kind = request.kind as CheckoutKind;
  const base = newPaymentFields({ amount: '1.00', currency: request.currency, description: request.description }, livemode);
  const fields = {
    kind,
    description: base.description,
    currency: base.currency,
    amount: null,
    minAmount: null,
    maxAmount: null,
    plans: null,
  };
  if (kind === 'pricing_table') {
    const plans = request.plans ?? [];
    if (plans.length < 2 || plans.length > 4) throw new ApiError('invalid_plans', 'A pricing table has 2 to 4 plans.', 'plans');
    return {
      ...fields,
      plans: plans.map((plan) => {
        if (plan.label.trim() === '' || [...plan.label].length > PLAN_LABEL_MAX) {
          throw new ApiError('invalid_plans', `Each plan needs a label of 1 to ${PLAN_LABEL_MAX} characters.`, 'plans');
        }
        return { label: plan.label, amount: price(plan.amount, base.currency, 'plans') };
      }),
    };
  }
  if (request.plans !== undefined && request.plans.length > 0) {
    throw new ApiError('invalid_plans', 'Only a pricing table has plans.', 'plans');
  }
  if (request.amount !== undefined) {
    if (request.minAmount !== undefined || request.maxAmount !== undefined) {
      throw new ApiError('invalid_request', 'Give either amount or min_amount and max_amount.', 'amount');
    }
    return { ...fields, amount: price(request.amount, base.currency, 'amount') };
  }
  if (request.minAmount === undefined || request.maxAmount === undefined) {
    throw new ApiError('invalid_amount', 'Give amount, or min_amount and max_amount for a price the buyer enters.', 'amount');
  }
  const minAmount = price(request.minAmount, base.currency, 'min_amount');
  const maxAmount = price(request.maxAmount, base.currency, 'max_amount');
  if (!isWithin(parsePrice(minAmount)!, LIMITS.minAmount, maxAmount)) {
    throw new ApiError('invalid_amount', 'min_amount must not be above max_amount.', 'min_amount');
  }
  return { ...fields, minAmount, maxAmount };
}

/** The pricing-table plan as the webhook's `planLabel` shows it: "Pro — 29.00 EUR". */
export function planLabel(plan: Plan, currency: Currency): string {
  return `${plan.label} — ${plan.amount} ${currency}`;
}

/** What one visit pays: the fixed price, the chosen plan, or the buyer's amount within the range. */
export function visitPrice(
  checkout: Checkout,
  choice: { plan?: number | undefined; amount?: string | undefined },
): { amount: string; planLabel: string | null } {
  if (checkout.archivedAt !== null) throw new ApiError('archived');
  if (checkout.plans !== null) {
    const plan = choice.plan === undefined ? undefined : checkout.plans[choice.plan];
    if (!plan) throw new ApiError('invalid_plans', 'Choose one of the plans.', 'plan');
    return { amount: plan.amount, planLabel: planLabel(plan, checkout.currency) };
  }
  if (checkout.amount !== null) return { amount: checkout.amount, planLabel: null };
  const entered = choice.amount === undefined ? undefined : parsePrice(choice.amount.trim());
  if (!entered || !isWithin(entered, checkout.minAmount!, checkout.maxAmount!)) {
    throw new ApiError('invalid_amount', `Enter an amount from ${checkout.minAmount} to ${checkout.maxAmount}.`, 'amount');
  }
  return { amount: formatPrice(entered), planLabel: null };
}
