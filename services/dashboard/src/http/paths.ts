import type { Mode } from '../domain/dashboard-user.ts';

/** Every address of the dashboard, in one place (the front router sends /dashboard here). */
export const dashboardPaths = {
  root: '/dashboard',
  assets: '/dashboard/assets',
  signIn: '/dashboard/sign-in',
  signInCode: '/dashboard/sign-in/code',
  signOut: '/dashboard/sign-out',
  setPassword: '/dashboard/set-password',
  twoFactor: '/dashboard/two-factor',
  health: '/dashboard/healthz',
  ready: '/dashboard/readyz',
} as const;

/** A page of one mode: /dashboard/test/payments, /dashboard/live/developers/keys, … */
export function modePath(mode: Mode, ...rest: string[]): string {
  return ['/dashboard', mode, ...rest.map(encodeURIComponent)].join('/');
}

/** Where a signed-in user lands. */
export function home(mode: Mode = 'test'): string {
  return modePath(mode, 'payments');
}

/** Only our own pages are places to return to after sign-in (no open redirect). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/dashboard/') || next.startsWith('//') || /[\\\s]/.test(next)) return home();
  return next;
}
