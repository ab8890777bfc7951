import { monotonicFactory } from 'ulid';
import type { Decision, SettlementDetails } from './settlement-checks.ts';

/** `details`: settlement details of a payment already confirmed paid (by the chain check) arrived late. */
export const VERDICT_KINDS = ['paid', 'held', 'failed', 'details'] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/** A decision on a payment, as recorded. Checkout applies each verdict once, by id. */
export interface Verdict {
  readonly id: string;
  readonly paymentId: string;
  readonly kind: VerdictKind;
  readonly holdReason: string | null;
  readonly holdAcceptable: boolean;
  /** Null for a decline: nothing moved. */
  readonly settlement: SettlementDetails | null;
  readonly decidedAt: Date;
}

/**
 * Verdict ids: "vrd_" and a ULID, sortable by decision time like the platform's other ids. The prefix
 * is local to this service (verdicts never appear in the public API), so @hc/ids does not list it.
 */
export const VERDICT_ID_PREFIX = 'vrd_';
const nextUlid = monotonicFactory();

export function newVerdictId(decidedAt: Date): string {
  return VERDICT_ID_PREFIX + nextUlid(decidedAt.getTime());
}

export function verdictFrom(decision: Decision, fields: { id: string; paymentId: string; decidedAt: Date }): Verdict {
  switch (decision.kind) {
    case 'paid':
      return { ...fields, kind: 'paid', holdReason: null, holdAcceptable: false, settlement: decision.settlement };
    case 'held':
      return {
        ...fields,
        kind: 'held',
        holdReason: decision.holdReason,
        holdAcceptable: decision.holdAcceptable,
        settlement: decision.settlement,
      };
    case 'failed':
      return { ...fields, kind: 'failed', holdReason: null, holdAcceptable: false, settlement: null };
  }
}

/** Late settlement details for a payment the chain check already confirmed: checkout publishes payment.updated. */
export function detailsVerdict(settlement: SettlementDetails, fields: { id: string; paymentId: string; decidedAt: Date }): Verdict {
  return { ...fields, kind: 'details', holdReason: null, holdAcceptable: false, settlement };
}
