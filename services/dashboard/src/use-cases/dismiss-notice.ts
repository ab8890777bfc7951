import type { DashboardUser } from '../domain/dashboard-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

/**
 * The user has read a security notice: it is no longer shown to this user (the account's other users
 * still see it until each dismisses it). False when the id is no notice of the user's account.
 */
export function dismissNotice(deps: DashboardDependencies, user: DashboardUser, noticeId: string): Promise<boolean> {
  return deps.notices.dismiss(user.accountId, user.id, noticeId, deps.now());
}
