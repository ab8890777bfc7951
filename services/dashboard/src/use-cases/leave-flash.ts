import { secretHash } from '../adapters/tokens.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** A one-line notice shown on the session's next page (after a post/redirect/get). Never a secret. */
export async function leaveFlash(deps: DashboardDependencies, sessionSecret: string, message: string): Promise<void> {
  await deps.users.setFlash(secretHash(sessionSecret), message.slice(0, 300));
}
