import type { Mode } from '../../domain/dashboard-user.ts';

/** Every address of the dashboard, in one place (the front router sends /dashboard here). */
export const dashboardPaths = {
  root: '/dashboard',
  assets: '/dashboard/assets',
  signIn: '/dashboard/sign-in',
  signInCode: '/dashboard/sign-in/code',
  signOut: '/dashboard/sign-out',
  setPassword: '/dashboard/set-password',
  twoFactor: '/dashboard/two-factor',
  notices: '/dashboard/notices',
  health: '/dashboard/healthz',
  ready: '/dashboard/readyz',
} as const;

/** A page of one mode: /dashboard/test/payments, /dashboard/live/developers/keys, … */
export function modePath(mode: Mode, ...rest: string[]): string {
  return ['/dashboard', mode, ...rest.map(encodeURIComponent)].join('/');
}

/** Where a signed-in user lands: the Overview (docs/adr/0058). */
export function home(mode: Mode = 'test'): string {
  return modePath(mode, 'overview');
}

/** A fixed origin to resolve `next` against: only the path and query of the result are used. */
const BASE = 'https://dashboard.invalid';
/** Percent-decoding rounds before giving up (a value encoded more deeply than this is refused). */
const DECODE_ROUNDS = 4;

/** The value with every layer of percent-encoding undone, or null (malformed, or too deep). */
function fullyDecoded(value: string): string | null {
  let current = value;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  return null;
}

/** The path of a root-relative address after the URL parser resolved its dot segments, or null. */
function resolvedPath(value: string): string | null {
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  const url = new URL(value, BASE);
  return url.origin === BASE ? url.pathname : null;
}

const underDashboard = (path: string | null): boolean => path !== null && path.startsWith('/dashboard/');

/**
 * Only our own pages are places to return to after sign-in (no open redirect). The address must be
 * root-relative and its path must stay under /dashboard/ both as sent (dot segments, `%2e%2e` among
 * them, resolved by the URL parser against a fixed origin) and with every layer of percent-encoding
 * undone (so `%2f`, `%5c` or a doubly encoded `..` cannot leave it at a proxy that decodes); no
 * backslash, space or control character, encoded in the path or raw anywhere. The answer is the
 * parser's own form (path and query, dot segments gone); anything else is the dashboard's home.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return home();
  const refused = /[\\\s\p{Cc}]/u;
  const path = fullyDecoded(next.split(/[?#]/, 1)[0]!);
  if (path === null || refused.test(next) || refused.test(path)) return home();
  if (!underDashboard(resolvedPath(next)) || !underDashboard(resolvedPath(path))) return home();
  const url = new URL(next, BASE);
  return `${url.pathname}${url.search}`;
}
