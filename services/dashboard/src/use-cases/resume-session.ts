import { secretHash } from '../adapters/tokens.ts';
import { SESSION_IDLE_MS, SESSION_MAX_MS, type DashboardSession } from '../domain/dashboard-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** The session a browser's cookie names, if it is live (its idle expiry moves on with each use). */
export async function resumeSession(deps: DashboardDependencies, sessionSecret: string): Promise<DashboardSession | null> {
  if (sessionSecret.length < 20 || sessionSecret.length > 100) return null;
  return deps.users.resumeSession(secretHash(sessionSecret), deps.now(), SESSION_IDLE_MS, SESSION_MAX_MS);
}
