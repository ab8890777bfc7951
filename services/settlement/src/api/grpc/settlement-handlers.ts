import type { ServiceHandlers } from '@hc/grpc';
import type { SettlementService } from '@hc/proto/settlement/v1';
import type { SettlementDependencies } from '../../use-cases/dependencies.ts';
import { listTimeline } from '../../use-cases/list-timeline.ts';
import { lockSettlement } from '../../use-cases/lock-settlement.ts';
import { simulateOutcome } from '../../use-cases/simulate-outcome.ts';
import { lockMessage, outcomeFromProto, verdictMessage } from './messages.ts';

/** gRPC handlers: proto in, use case, proto out. No rules here. */
export function settlementHandlers(deps: SettlementDependencies): ServiceHandlers<typeof SettlementService> {
  return {
    async lockSettlement(request, ctx) {
      const lock = await lockSettlement(deps, ctx, {
        paymentId: request.paymentId,
        amount: request.amount,
        currency: request.currency,
        payoutWallet: request.payoutWallet,
        feeBps: request.feeBps,
      });
      return { lock: lockMessage(lock) };
    },

    async listTimeline(request, ctx) {
      const entries = await listTimeline(deps, ctx, request.paymentId);
      return {
        entries: entries.map((e) => ({ seq: e.seq, kind: e.kind, at: BigInt(e.at.getTime()), detailJson: JSON.stringify(e.detail) })),
      };
    },

    async simulateOutcome(request, ctx) {
      const verdict = await simulateOutcome(deps, ctx, { paymentId: request.paymentId, outcome: outcomeFromProto(request.outcome) });
      return { verdict: verdictMessage(verdict) };
    },
  };
}
