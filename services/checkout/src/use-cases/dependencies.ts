import type { CheckoutSessionStore } from '../store/checkout-sessions.ts';

/** What use cases need from the outside world; tests pass real stores and a movable clock. */
export interface CheckoutDependencies {
  readonly sessions: CheckoutSessionStore;
  readonly now: () => Date;
  readonly publicBaseUrl: string;
}
