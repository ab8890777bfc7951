import type { NoticeStore } from '../store/notice-store.ts';
import type { UserStore } from '../store/user-store.ts';

/** What the dashboard's use cases need: its store and a clock (tests move time). */
export interface DashboardDependencies {
  readonly users: UserStore;
  /** Security notices for an account's users (docs/adr/0038). */
  readonly notices: NoticeStore;
  readonly now: () => Date;
  /** {PUBLIC_BASE_URL}, for the set-password links the operator hands out. */
  readonly publicBaseUrl: string;
}
