import { secretHash } from '../adapters/tokens.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** Ends the session server-side: the cookie, even if kept, opens nothing afterwards. */
export async function signOut(deps: DashboardDependencies, sessionSecret: string): Promise<void> {
  await deps.users.deleteSession(secretHash(sessionSecret));
}
