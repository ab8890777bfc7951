import type { Response } from 'express';
import { ApiError } from '@hc/errors';
import type { Checkout } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import type { Account } from '@hc/proto/accounts/v1';
import { formatUnixSeconds, millisDate, paymentStatusWord } from '../../domain/format.ts';
import { widgetSnippet } from '../../domain/link-forms.ts';

/** The account as checkout needs it at create (like the operator CLI's creatingAccount). */
export function creatingAccount(res: Response): { payoutWallet?: string; feeBps: number; merchantName: string } {
  const account = res.locals['account'] as Account;
  // A suspended account takes no new payments, whichever way they are made.
  if (account.status !== 'active') throw new ApiError('suspended');
  return { payoutWallet: account.payoutWallet, feeBps: account.feeBps, merchantName: account.name };
}

/** A payment link as the pages show it; a canceled link is `expired` with canceled_at (spec). */
export function linkView(payment: Payment) {
  const status = paymentStatusWord(payment);
  return {
    id: payment.id,
    url: payment.url,
    trackingUrl: payment.trackingUrl ?? '',
    status,
    // Cancel is offered while nobody has paid (open, or pending at a provider; docs/adr/0081); the
    // service still decides (not_cancelable).
    cancelable: status === 'open' || status === 'pending',
    amount: payment.amount,
    currency: payment.currency,
    description: payment.description,
    customerName: payment.customerName ?? '',
    memo: payment.memo ?? '',
    customerEmail: payment.customerEmail ?? '',
    reference: payment.reference ?? '',
    created: formatUnixSeconds(millisDate(payment.createdAt)),
    expiresAt: formatUnixSeconds(millisDate(payment.expiresAt)),
    canceledAt: formatUnixSeconds(millisDate(payment.canceledAt)),
  };
}

const KINDS: Record<string, string> = { page: 'Page', pricing_table: 'Pricing table', widget: 'Widget' };

function priceOf(checkout: Checkout): string {
  if (checkout.plans.length > 0) return checkout.plans.map((plan) => `${plan.label} ${plan.amount}`).join(', ') + ` ${checkout.currency}`;
  if (checkout.amount !== undefined) return `${checkout.amount} ${checkout.currency}`;
  return `${checkout.minAmount ?? ''} to ${checkout.maxAmount ?? ''} ${checkout.currency} (buyer chooses)`;
}

export function checkoutView(checkout: Checkout) {
  return {
    id: checkout.id,
    kind: checkout.kind,
    kindLabel: KINDS[checkout.kind] ?? checkout.kind,
    description: checkout.description,
    price: priceOf(checkout),
    plans: checkout.plans.map((plan) => ({ label: plan.label, amount: plan.amount })),
    currency: checkout.currency,
    url: checkout.url,
    snippet: checkout.kind === 'widget' ? widgetSnippet(checkout.url, checkout.id) : '',
    archived: checkout.archivedAt !== undefined,
    archivedAt: formatUnixSeconds(checkout.archivedAt),
    created: formatUnixSeconds(checkout.created),
  };
}
