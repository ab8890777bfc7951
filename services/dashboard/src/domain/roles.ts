/**
 * Who may do what in the dashboard (docs/adr/0055, docs/dashboard-roles.md). A user has one role in
 * one account. Every change the dashboard offers is one of these actions, and the server checks the
 * signed-in user's role before the route runs (src/http/authorize.ts); the pages only hide what the
 * server would refuse anyway. Reading is open to every role; the table below is about changes.
 */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Every action that changes something, or reads what only some roles may read. */
export const ACTIONS = [
  // Your own sign-in: every role, on your own user only.
  'self.two_factor',
  'self.dismiss_notice',
  // Money and buyers: owner and admin.
  'payout_wallet.change',
  'notifications.change',
  'brand.change',
  'payment.accept',
  'customer.erase',
  'customer.note',
  'link.create',
  'link.cancel',
  'checkout.create',
  'checkout.archive',
  // Integration: owner, admin and developer.
  'api_key.create',
  'api_key.revoke',
  'endpoint.create',
  'endpoint.update',
  'endpoint.enable',
  'endpoint.disable',
  'endpoint.ping',
  'endpoint.check',
  'endpoint.rotate_secret',
  'event.resend',
  // Bookkeeping: exports are reads every role may make.
  'export.payments',
  'export.statement',
  // The team and the record of who did what: owner only for changes; owner and admin read the log.
  'team.invite',
  'team.change_role',
  'team.remove',
  'audit.read',
] as const;
export type Action = (typeof ACTIONS)[number];

const ALL: readonly Role[] = ROLES;
const MONEY: readonly Role[] = ['owner', 'admin'];
const INTEGRATION: readonly Role[] = ['owner', 'admin', 'developer'];
const OWNER: readonly Role[] = ['owner'];

/** The table the docs print: the roles allowed each action. Anything not here is nobody's. */
export const PERMITTED: Readonly<Record<Action, readonly Role[]>> = {
  'self.two_factor': ALL,
  'self.dismiss_notice': ALL,
  'payout_wallet.change': MONEY,
  // Who gets receipts and alerts: the account's owners and admins (Settings → Emails).
  'notifications.change': MONEY,
  // The shop's logo and accent colour on buyer pages and mails (Settings → Brand, docs/adr/0096).
  'brand.change': MONEY,
  'payment.accept': MONEY,
  'customer.erase': MONEY,
  'customer.note': MONEY,
  'link.create': MONEY,
  'link.cancel': MONEY,
  'checkout.create': MONEY,
  'checkout.archive': MONEY,
  'api_key.create': INTEGRATION,
  'api_key.revoke': INTEGRATION,
  'endpoint.create': INTEGRATION,
  'endpoint.update': INTEGRATION,
  'endpoint.enable': INTEGRATION,
  'endpoint.disable': INTEGRATION,
  'endpoint.ping': INTEGRATION,
  'endpoint.check': INTEGRATION,
  'endpoint.rotate_secret': INTEGRATION,
  'event.resend': INTEGRATION,
  'export.payments': ALL,
  'export.statement': ALL,
  'team.invite': OWNER,
  'team.change_role': OWNER,
  'team.remove': OWNER,
  'audit.read': MONEY,
};

export function may(role: Role, action: Action): boolean {
  return PERMITTED[action].includes(role);
}

/** The actions a role may take, as the templates ask (`can['payment.accept']`). */
export function abilities(role: Role): Readonly<Record<Action, boolean>> {
  return Object.fromEntries(ACTIONS.map((action) => [action, may(role, action)])) as Record<Action, boolean>;
}

/** What a change of the team would leave: an account always keeps at least one owner. */
export function leavesAnOwner(owners: number, change: { from: Role; to: Role | null }): boolean {
  return !(change.from === 'owner' && change.to !== 'owner' && owners <= 1);
}
