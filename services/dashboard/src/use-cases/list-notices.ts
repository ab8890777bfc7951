import type { DashboardUser } from '../domain/dashboard-user.ts';
import { NOTICE_KEPT_MS, NOTICES_SHOWN, type SecurityNotice } from '../domain/security-notice.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** The security notices of the user's account this user has not dismissed (newest first, recent only). */
export async function listNotices(deps: DashboardDependencies, user: DashboardUser): Promise<SecurityNotice[]> {
  const since = new Date(deps.now().getTime() - NOTICE_KEPT_MS);
  return deps.notices.undismissed(user.accountId, user.id, since, NOTICES_SHOWN);
}
