import { ApiError } from '@hc/errors';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import { startedUnpaid, walletOf, type StartedUnpaid } from '../domain/security-notice.ts';
import type { DashboardDependencies } from './dependencies.ts';
import { reauthenticate } from './reauthenticate.ts';

export type WalletChangeOutcome = 'changed' | 'unchanged' | 'wrong' | 'locked';

/**
 * Changes the account's payout wallet (docs/adr/0038): only after the user proves it is them again
 * (password, and the code with two-factor on; wrong answers count towards the sign-in lock), and never
 * silently — a security notice naming the old and new wallet, who and when, is recorded for every user
 * of the account before the change is asked of the accounts context. If accounts refuses (a bad address, a
 * suspended account) the change did not happen and the notice is withdrawn; if the outcome is unknown
 * (no answer in time) the notice stays: a needless notice is better than a silent change. The error
 * goes on to the caller either way.
 *
 * The notice also names the Live payments started and not yet paid at that moment (docs/adr/0081):
 * their money follows the wallet of the moment it is forwarded, so whoever changed the wallet may have
 * started them. A list that cannot be read does not stop the change (a merchant changing a wallet back
 * must not wait on it); the notice then says to check the payments.
 */
export async function changePayoutWallet(
  deps: DashboardDependencies,
  user: DashboardUser,
  input: { current: string | null; typed: string; password: string; code: string; clientAddress: string },
  setWallet: (wallet: string | null) => Promise<void>,
  listStartedUnpaid: () => Promise<string[]>,
): Promise<WalletChangeOutcome> {
  const proof = await reauthenticate(deps, user, { password: input.password, code: input.code }, input.clientAddress);
  if (proof !== 'accepted') return proof;
  const wallet = walletOf(input.typed);
  if (wallet === input.current) return 'unchanged';
  // Unreadable (checkout down): null, and the notice's words say to check the payments instead.
  const affected: StartedUnpaid | null = await listStartedUnpaid().then(startedUnpaid, () => null);
  const notice = await deps.notices.insertNotice({
    accountId: user.accountId,
    kind: 'payout_wallet_changed',
    actorEmail: user.email,
    oldValue: input.current,
    newValue: wallet,
    affected,
    at: deps.now(),
  });
  try {
    await setWallet(wallet);
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus >= 400 && error.httpStatus < 500)
      await deps.notices.deleteNotice(user.accountId, notice.id);
    throw error;
  }
  return 'changed';
}
