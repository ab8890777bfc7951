import { ApiError } from '@hc/errors';
import { judgeArrival, judgeDecline, normalizeArrival } from '../domain/settlement-checks.ts';
import type { Scope } from '../domain/settlement-lock.ts';
import type { SimulatedOutcome } from '../domain/simulation.ts';
import { newVerdictId, verdictFrom, type Verdict } from '../domain/verdict.ts';
import type { SettlementDependencies } from './dependencies.ts';

export interface SimulateRequest {
  paymentId: string;
  /** Undefined when the caller sent none or one this service does not know. */
  outcome: SimulatedOutcome | undefined;
}

/**
 * Test mode: the sandbox produces the outcome's arrival (or a decline), the settlement checks run on
 * it as on a Live arrival, and arrival and verdict are recorded together. A payment ends once: any
 * later call, also a concurrent one, returns the first verdict whatever outcome it asks for.
 */
export async function simulateOutcome(deps: SettlementDependencies, scope: Scope, request: SimulateRequest): Promise<Verdict> {
  if (request.outcome === undefined) throw new ApiError('invalid_outcome', undefined, 'outcome');
  if (scope.livemode) throw new ApiError('live_payment');
  const lock = await deps.locks.find(scope, request.paymentId);
  if (!lock) throw new ApiError('not_started');

  const earlier = await deps.verdicts.findSimulation(lock.paymentId);
  if (earlier) return earlier;

  const report = await deps.processors.test.simulate(lock, request.outcome);
  const at = deps.now();
  const arrival = report.kind === 'arrival' ? normalizeArrival(report.arrival) : null;
  const { verdict } = await deps.verdicts.record(
    {
      scope,
      paymentId: lock.paymentId,
      arrival: arrival && { ...arrival, receivedAt: at, source: 'sandbox' },
      simulationOf: lock.paymentId,
    },
    (evidence) =>
      verdictFrom(arrival ? judgeArrival(lock, arrival, evidence) : judgeDecline(), {
        id: newVerdictId(at),
        paymentId: lock.paymentId,
        decidedAt: at,
      }),
  );
  return verdict;
}
