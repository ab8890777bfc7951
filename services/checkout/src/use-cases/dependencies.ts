import type { ServiceClient } from '@hc/grpc';
import type { MerchantAdminService } from '@hc/proto/accounts/v1';
import type { SettlementService } from '@hc/proto/settlement/v1';
import type { Scope } from '../domain/payment.ts';
import type { ProviderDefinition } from '../domain/providers.ts';
import type { PaymentStore } from '../store/payments.ts';
import type { CheckoutStore } from '../store/checkouts.ts';

/** What use cases need from the outside world; tests pass real stores and a movable clock. */
export interface CheckoutDependencies {
  /** The payments' store. */
  readonly payments: PaymentStore;
  readonly checkouts: CheckoutStore;
  readonly settlement: ServiceClient<typeof SettlementService>;
  /**
   * The accounts context's merchant admin service, which owns merchant accounts: the buyer's side reads the
   * account (wallet, fee, status) there at the moment a payment may start or move (docs/adr/0037).
   */
  readonly accounts: ServiceClient<typeof MerchantAdminService>;
  readonly providers: readonly ProviderDefinition[];
  readonly now: () => Date;
  readonly publicBaseUrl: string;
}

/** The caller's scope plus the request id that follows the call into other services. */
export type Caller = Scope & { readonly requestId: string };
