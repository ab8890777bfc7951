import type { UserStore } from '../store/user-store.ts';

/** What the dashboard's use cases need: its store and a clock (tests move time). */
export interface DashboardDependencies {
  readonly users: UserStore;
  readonly now: () => Date;
  /** {PUBLIC_BASE_URL}, for the set-password links the operator hands out. */
  readonly publicBaseUrl: string;
}
