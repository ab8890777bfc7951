import type { Action } from '../../domain/roles.ts';

/**
 * Every address that changes something (any method but GET and HEAD), and the GET pages only some
 * roles may read, each with its action (src/domain/roles.ts), written as the route is registered
 * (its full path pattern). Each route's guard (authorize.ts, put on the route by routers.ts) finds its
 * line here by that pattern; a POST route without a line cannot be registered, so the dashboard does
 * not start: a change added without its role is nobody's, never everybody's (docs/adr/0055).
 */
export const ACTION_ROUTES: readonly { readonly method: 'GET' | 'POST'; readonly path: string; readonly action: Action }[] = [
  { method: 'POST', path: '/dashboard/notices/:id/dismiss', action: 'self.dismiss_notice' },
  { method: 'POST', path: '/dashboard/two-factor/begin', action: 'self.two_factor' },
  { method: 'POST', path: '/dashboard/two-factor/confirm', action: 'self.two_factor' },
  { method: 'POST', path: '/dashboard/two-factor/disable', action: 'self.two_factor' },
  { method: 'POST', path: '/dashboard/:mode/settings/payout-wallet', action: 'payout_wallet.change' },
  { method: 'POST', path: '/dashboard/:mode/settings/emails', action: 'notifications.change' },
  { method: 'POST', path: '/dashboard/:mode/settings/brand', action: 'brand.change' },
  { method: 'POST', path: '/dashboard/:mode/payments/:id/accept', action: 'payment.accept' },
  { method: 'POST', path: '/dashboard/:mode/customers/:id/note', action: 'customer.note' },
  { method: 'POST', path: '/dashboard/:mode/customers/:id/delete', action: 'customer.erase' },
  { method: 'POST', path: '/dashboard/:mode/links', action: 'link.create' },
  { method: 'POST', path: '/dashboard/:mode/links/:id/cancel', action: 'link.cancel' },
  { method: 'POST', path: '/dashboard/:mode/links/checkouts', action: 'checkout.create' },
  { method: 'POST', path: '/dashboard/:mode/links/checkouts/:id/archive', action: 'checkout.archive' },
  { method: 'POST', path: '/dashboard/:mode/developers/keys', action: 'api_key.create' },
  { method: 'POST', path: '/dashboard/:mode/developers/keys/:id/revoke', action: 'api_key.revoke' },
  { method: 'POST', path: '/dashboard/:mode/developers/endpoints', action: 'endpoint.create' },
  { method: 'POST', path: '/dashboard/:mode/developers/endpoints/:id', action: 'endpoint.update' },
  { method: 'POST', path: '/dashboard/:mode/developers/endpoints/:id/enable', action: 'endpoint.enable' },
  { method: 'POST', path: '/dashboard/:mode/developers/endpoints/:id/disable', action: 'endpoint.disable' },
  { method: 'POST', path: '/dashboard/:mode/developers/endpoints/:id/ping', action: 'endpoint.ping' },
  { method: 'POST', path: '/dashboard/:mode/developers/endpoints/:id/check', action: 'endpoint.check' },
  { method: 'POST', path: '/dashboard/:mode/developers/endpoints/:id/rotate', action: 'endpoint.rotate_secret' },
  { method: 'POST', path: '/dashboard/:mode/developers/events/:id/resend', action: 'event.resend' },
  { method: 'POST', path: '/dashboard/:mode/team/invite', action: 'team.invite' },
  { method: 'POST', path: '/dashboard/:mode/team/:id/role', action: 'team.change_role' },
  { method: 'POST', path: '/dashboard/:mode/team/:id/remove', action: 'team.remove' },
  { method: 'GET', path: '/dashboard/:mode/team/:id/remove', action: 'team.remove' },
  { method: 'GET', path: '/dashboard/:mode/audit', action: 'audit.read' },
  { method: 'GET', path: '/dashboard/:mode/audit.csv', action: 'audit.read' },
  { method: 'GET', path: '/dashboard/:mode/payments.csv', action: 'export.payments' },
  { method: 'GET', path: '/dashboard/:mode/statement.csv', action: 'export.statement' },
  { method: 'GET', path: '/dashboard/:mode/statement.json', action: 'export.statement' },
];
