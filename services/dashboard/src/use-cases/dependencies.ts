import type { AuditStore } from '../store/audit-store.ts';
import type { NoticeStore } from '../store/notice-store.ts';
import type { TeamStore } from '../store/team-store.ts';
import type { UserStore } from '../store/user-store.ts';

/** What the dashboard's use cases need: its store and a clock (tests move time). */
export interface DashboardDependencies {
  readonly users: UserStore;
  /** Security notices for an account's users (docs/adr/0038). */
  readonly notices: NoticeStore;
  /** The account's users as a team, with roles (docs/adr/0055). */
  readonly team: TeamStore;
  /** The append-only audit log (docs/adr/0056). */
  readonly audit: AuditStore;
  readonly now: () => Date;
  /** {PUBLIC_BASE_URL}, for the set-password links the operator hands out. */
  readonly publicBaseUrl: string;
}
