import { ApiError } from '@hc/errors';
import type { Scope } from '../domain/settlement-lock.ts';
import type { RecordedTimelineEntry } from '../store/timeline.ts';
import type { SettlementDependencies } from './dependencies.ts';

/** A started payment's money timeline, for operators and the dashboard; another account's or mode's payment is not found. */
export async function listTimeline(deps: SettlementDependencies, scope: Scope, paymentId: string): Promise<RecordedTimelineEntry[]> {
  const lock = await deps.locks.find(scope, paymentId);
  if (!lock) throw new ApiError('not_found', 'No such payment.');
  return deps.timeline.list(lock.paymentId);
}
