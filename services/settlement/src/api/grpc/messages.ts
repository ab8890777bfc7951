import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  SimulatedOutcome as ProtoOutcome,
  VerdictKind as ProtoKind,
  type SettlementLockSchema,
  type VerdictSchema,
} from '@hc/proto/settlement/v1';
import type { SettlementLock } from '../../domain/settlement-lock.ts';
import type { SimulatedOutcome } from '../../domain/simulation.ts';
import type { Verdict, VerdictKind } from '../../domain/verdict.ts';

const KIND_TO_PROTO: Record<VerdictKind, ProtoKind> = {
  paid: ProtoKind.PAID,
  held: ProtoKind.HELD,
  failed: ProtoKind.FAILED,
  details: ProtoKind.DETAILS,
};

const OUTCOME_FROM_PROTO: ReadonlyMap<ProtoOutcome, SimulatedOutcome> = new Map([
  [ProtoOutcome.PAID, 'paid'],
  [ProtoOutcome.UNDERPAID, 'underpaid'],
  [ProtoOutcome.FAILED, 'failed'],
]);

/** UNSPECIFIED and numbers this build does not know (a newer client) both read as no outcome. */
export function outcomeFromProto(outcome: ProtoOutcome): SimulatedOutcome | undefined {
  return OUTCOME_FROM_PROTO.get(outcome);
}

export function lockMessage(lock: SettlementLock): MessageInitShape<typeof SettlementLockSchema> {
  return {
    paymentId: lock.paymentId,
    depositAddress: lock.depositAddress ?? undefined,
    payoutWallet: lock.payoutWallet ?? undefined,
    feeBps: lock.feeBps,
    amount: lock.amount,
    currency: lock.currency,
    usdRate: lock.usdRate,
    usdValue: lock.usdValue,
    lockedAt: BigInt(lock.lockedAt.getTime()),
  };
}

export function verdictMessage(verdict: Verdict): MessageInitShape<typeof VerdictSchema> {
  const s = verdict.settlement;
  return {
    id: verdict.id,
    paymentId: verdict.paymentId,
    kind: KIND_TO_PROTO[verdict.kind],
    holdReason: verdict.holdReason ?? undefined,
    holdAcceptable: verdict.holdAcceptable,
    settlement: s
      ? {
          coin: s.coin ?? undefined,
          valueCoin: s.valueCoin ?? undefined,
          merchantReceived: s.merchantReceived ?? undefined,
          txidIn: s.txidIn ?? undefined,
          txidOut: s.txidOut ?? undefined,
          payoutWallet: s.payoutWallet ?? undefined,
        }
      : undefined,
    decidedAt: BigInt(verdict.decidedAt.getTime()),
  };
}
