import type { Verdict } from './verdict.ts';

/**
 * What can happen to a payment's money, as its timeline records it (append-only; operators read it,
 * never the API or webhooks). Details are plain JSON: amounts stay decimal strings.
 */
export const TIMELINE_KINDS = [
  'address_assigned',
  'transfer_seen_on_chain',
  'notice_received',
  'notice_rejected',
  'notice_duplicate',
  'notice_mismatch',
  'verdict',
  'forwarded',
  'forward_target_decided',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineEntry {
  readonly paymentId: string;
  readonly kind: TimelineKind;
  readonly detail: Readonly<Record<string, string | number | boolean | null>>;
  readonly at: Date;
}

/** The timeline's line for a verdict. */
export function verdictTimelineEntry(verdict: Verdict): TimelineEntry {
  const s = verdict.settlement;
  return {
    paymentId: verdict.paymentId,
    kind: 'verdict',
    detail: {
      verdict: verdict.id,
      kind: verdict.kind,
      hold_reason: verdict.holdReason,
      hold_acceptable: verdict.holdAcceptable,
      coin: s?.coin ?? null,
      value_coin: s?.valueCoin ?? null,
      merchant_received: s?.merchantReceived ?? null,
      txid_in: s?.txidIn ?? null,
      txid_out: s?.txidOut ?? null,
    },
    at: verdict.decidedAt,
  };
}
