import type { Payment } from './payment.ts';

/** One line of a payment's timeline, from checkout (what the payment went through) or settlement (its money). */
export interface PaymentTimelineEntry {
  readonly source: 'checkout' | 'settlement';
  readonly kind: string;
  readonly at: Date;
  readonly detail: Readonly<Record<string, unknown>>;
}

/**
 * What checkout itself knows of a payment's life, as timeline lines: created, started, canceled,
 * expired, accepted by the merchant. Paid and held are settlement's verdict lines; the merchant's
 * acceptance of a held payment is checkout's alone.
 */
export function checkoutTimeline(payment: Payment): PaymentTimelineEntry[] {
  const entries: PaymentTimelineEntry[] = [
    {
      source: 'checkout',
      kind: 'created',
      at: payment.createdAt,
      detail: { source: payment.source, amount: payment.amount, currency: payment.currency },
    },
  ];
  if (payment.startedAt)
    entries.push({ source: 'checkout', kind: 'started', at: payment.startedAt, detail: { deposit_address: payment.depositAddress } });
  if (payment.canceledAt) entries.push({ source: 'checkout', kind: 'canceled', at: payment.canceledAt, detail: {} });
  // Paid past expires_at: the payment was expired first (the spec's late payment after expiry).
  else if (payment.status === 'expired' || (payment.paidAt !== null && payment.paidAt > payment.expiresAt))
    entries.push({ source: 'checkout', kind: 'expired', at: payment.expiresAt, detail: {} });
  if (payment.acceptedAt)
    entries.push({ source: 'checkout', kind: 'accepted_by_merchant', at: payment.acceptedAt, detail: { hold_reason: payment.holdReason } });
  return entries;
}

/**
 * At equal times: what starts a payment (created, started) comes before settlement's lines, what ends
 * it from checkout's side (canceled, expired, accepted) after them; each source keeps its own order.
 */
function tieRank(entry: PaymentTimelineEntry): number {
  if (entry.source === 'settlement') return 0;
  return entry.kind === 'created' || entry.kind === 'started' ? -1 : 1;
}

/** Both timelines in one, oldest first. */
export function mergeTimelines(checkout: PaymentTimelineEntry[], settlement: PaymentTimelineEntry[]): PaymentTimelineEntry[] {
  const tagged = [...checkout, ...settlement].map((entry, index) => ({ entry, index }));
  tagged.sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime() || tieRank(a.entry) - tieRank(b.entry) || a.index - b.index);
  return tagged.map((t) => t.entry);
}
