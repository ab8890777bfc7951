import { isUnpaid, type Payment } from './payment.ts';
import { selectProviders, type ProviderDefinition, type ProviderOffer } from './providers.ts';

/**
 * What the buyer may see of a payment on the hosted page: what is to be paid, to whom, and what the
 * buyer sent. Never the metadata, the settlement details or the deposit address; the account id is
 * for the pages' own calls about it (does the account send receipts?), never shown.
 */
export interface HostedView {
  readonly id: string;
  readonly status: Payment['status'];
  readonly livemode: boolean;
  readonly merchantName: string;
  readonly amount: string;
  readonly currency: string;
  readonly description: string;
  readonly customerEmail: string | null;
  readonly country: string | null;
  readonly expiresAt: Date;
  readonly started: boolean;
  readonly canceled: boolean;
  readonly successUrl: string | null;
  readonly cancelUrl: string | null;
  readonly reference: string | null;
  readonly provider: string | null;
  /** The providers for the buyer's country while the started payment can still be paid. */
  readonly providers: readonly ProviderOffer[];
  /** Payment links: who it is for and the merchant's note to the payer. */
  readonly customerName: string | null;
  readonly memo: string | null;
  /** The buyer's language the merchant chose at create; null: the buyer's browser decides. */
  readonly locale: string | null;
  readonly source: Payment['source'];
  /** Unpaid, but the account cannot take payments now (suspended, or Live without a wallet). */
  readonly unavailable: boolean;
  readonly accountId: string;
}

/** Unpaid and not canceled: the buyer may still act on it, so the account's standing matters. */
export function awaitsPayment(payment: Pick<Payment, 'status' | 'canceledAt'>): boolean {
  return isUnpaid(payment.status) && payment.canceledAt === null;
}

/** `unavailable`: the account cannot take payments now; only an unpaid payment can say so. */
export function hostedView(payment: Payment, catalogue: readonly ProviderDefinition[], unavailable = false): HostedView {
  const open = awaitsPayment(payment);
  const payable = payment.startedAt !== null && open && !unavailable;
  return {
    id: payment.id,
    status: payment.status,
    livemode: payment.livemode,
    merchantName: payment.merchantName ?? '',
    amount: payment.amount,
    currency: payment.currency,
    description: payment.description,
    customerEmail: payment.customerEmail,
    country: payment.country,
    expiresAt: payment.expiresAt,
    started: payment.startedAt !== null,
    canceled: payment.canceledAt !== null,
    successUrl: payment.successUrl,
    cancelUrl: payment.cancelUrl,
    reference: payment.reference,
    provider: payment.provider,
    providers: payable ? selectProviders(catalogue, payment) : [],
    customerName: payment.customerName,
    memo: payment.memo,
    locale: payment.locale,
    source: payment.source,
    unavailable: open && unavailable,
    accountId: payment.accountId,
  };
}
