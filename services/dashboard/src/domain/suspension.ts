import type { Action } from './roles.ts';

/**
 * What a suspended account's dashboard may not change (docs/security.md 47.9; docs/adr/0037 for the
 * buyers' side). An operator suspends an account to stop it — fraud, a compromise, unpaid fees — until
 * support has looked: nothing may then widen what the account can do, where its money or its data
 * goes, or who can act for it. So these are frozen: the payout wallet; new payment links and
 * checkouts; new API keys; webhook endpoints made, edited, enabled again or given a new secret; the
 * email settings (who gets receipts and alerts); the brand buyers see; invitations and role changes.
 *
 * What stays open: every read and export, the audit log, one's own sign-in (two-factor, notices), and
 * what only narrows or winds down — revoking a key, disabling an endpoint, removing a user, cancelling
 * a link, archiving a checkout, accepting a held payment, a customer's note and erasure (a buyer's
 * right that suspension does not suspend), a ping, a check (docs/adr/0087) or a resend to an endpoint already there (deliveries
 * of money already on its way go on, ADR 0037) — so an owner can contain a compromise while suspended.
 */
export const FROZEN_WHEN_SUSPENDED: ReadonlySet<Action> = new Set<Action>([
  'payout_wallet.change',
  'link.create',
  'checkout.create',
  'api_key.create',
  'endpoint.create',
  'endpoint.update',
  'endpoint.enable',
  'endpoint.rotate_secret',
  'notifications.change',
  'brand.change',
  'team.invite',
  'team.change_role',
]);

/** Whether the action is refused for an account in this status (anything but active counts as suspended). */
export function frozenBySuspension(action: Action, accountStatus: string | undefined): boolean {
  return FROZEN_WHEN_SUSPENDED.has(action) && accountStatus !== 'active';
}
