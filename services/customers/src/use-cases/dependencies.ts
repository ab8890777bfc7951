import type { CustomersStore } from '../store/customers-store.ts';

/** What use cases need from the outside world; tests pass a real store and a movable clock. */
export interface CustomersDependencies {
  readonly store: CustomersStore;
  readonly now: () => Date;
}
