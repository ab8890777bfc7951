import type { Action } from '../../domain/roles.ts';

/**
 * Every address that changes something (any method but GET and HEAD), and the GET pages only some
 * roles may read, each with its action (src/domain/roles.ts). authorize.ts refuses a change whose
 * address is not in this list, whoever asks: a route added without its line here is refused for
 * every role, never open to every role (docs/adr/0055). `:x` stands for one path segment.
 */
export const ACTION_ROUTES: readonly { readonly method: 'GET' | 'POST'; readonly path: string; readonly action: Action }[] = [
  { method: 'POST', path: '/dashboard/notices/:id/dismiss', action: 'self.dismiss_notice' },
  { method: 'POST', path: '/dashboard/two-factor/begin', action: 'self.two_factor' },
  { method: 'POST', path: '/dashboard/two-factor/confirm', action: 'self.two_factor' },
  { method: 'POST', path: '/dashboard/two-factor/disable', action: 'self.two_factor' },
  { method: 'POST', path: '/dashboard/:mode/settings/payout-wallet', action: 'payout_wallet.change' },
  { method: 'POST', path: '/dashboard/:mode/settings/emails', action: 'notifications.change' },
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
];

interface CompiledRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly params: readonly string[];
  readonly action: Action;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const COMPILED: readonly CompiledRoute[] = ACTION_ROUTES.map(({ method, path, action }) => {
  const params: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return escape(segment);
      params.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { method, pattern: new RegExp(`^${source}/?$`), params, action };
});

/** The action of a request and the values of its `:x` segments, or null when the list has none. */
export function actionOf(method: string, path: string): { action: Action; params: Record<string, string> } | null {
  const asked = method === 'HEAD' ? 'GET' : method;
  for (const route of COMPILED) {
    if (route.method !== asked) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    route.params.forEach((name, index) => {
      params[name] = decodeSegment(match[index + 1]!);
    });
    return { action: route.action, params };
  }
  return null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
