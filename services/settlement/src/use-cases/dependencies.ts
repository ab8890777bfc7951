import type { ServiceClient } from '@hc/grpc';
import type { MerchantAdminService } from '@hc/proto/accounts/v1';
import type { SettlementProcessor, SimulatingProcessor } from '../adapters/settlement-processor.ts';
import type { FxRateSource } from '../adapters/fx-rate-source.ts';
import type { SettlementLockStore } from '../store/settlement-locks.ts';
import type { SettlementUnit } from '../store/settlement-unit.ts';
import type { TimelineStore } from '../store/timeline.ts';
import type { VerdictStore } from '../store/verdicts.ts';

/** What use cases need from the outside world; tests pass real stores, a movable clock and their own processors. */
export interface SettlementDependencies {
  readonly locks: SettlementLockStore;
  readonly verdicts: VerdictStore;
  readonly timeline: TimelineStore;
  readonly fx: FxRateSource;
  /** Test mode's sandbox, and Live mode's processor. */
  readonly processors: { readonly test: SimulatingProcessor; readonly live: SettlementProcessor };
  /** Runs work in one transaction over settlement's records (Live notices, chain checks). */
  readonly units: <T>(work: (unit: SettlementUnit) => Promise<T>) => Promise<T>;
  readonly now: () => Date;
  /**
   * The accounts context (its merchant admin service, as checkout reads it, ADR 0037, 0085): where
   * a Live transfer is forwarded is its payout wallet when the processor asks (docs/adr/0081).
   */
  readonly accounts: ServiceClient<typeof MerchantAdminService>;
}
