import { randomUUID } from 'node:crypto';
import { parse } from 'cookie';
import type { Request, RequestHandler, Response } from 'express';
import type { CallContext } from '@hc/grpc';
import { sameSecret } from '../../adapters/tokens.ts';
import type { DashboardSession, Mode } from '../../domain/dashboard-user.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { resumeSession } from '../../use-cases/resume-session.ts';
import { isSameOrigin } from '@hc/web';
import { dashboardPaths } from './paths.ts';
import { renderProblem } from './render.ts';

export const SESSION_COOKIE = 'hc_dashboard';

/** What a request knows of its browser's session (res.locals.session). */
export interface SessionLocals {
  readonly secret: string;
  readonly session: DashboardSession;
}

export function sessionOf(res: Response): SessionLocals | undefined {
  return res.locals['session'] as SessionLocals | undefined;
}

/** The signed-in session of a route behind requireUser. */
export function signedIn(res: Response): SessionLocals {
  const found = sessionOf(res);
  if (!found) throw new Error('requireUser must run before this handler');
  return found;
}

/** The call context for the platform's services: the user's account, the URL's mode. */
export function callContext(res: Response, mode: Mode): CallContext {
  return { accountId: signedIn(res).session.user.accountId, livemode: mode === 'live', requestId: res.locals['requestId'] as string };
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on another site's
 * posts), Secure outside local http development, limited to /dashboard.
 */
export function setSessionCookie(res: Response, secret: string, secure: boolean): void {
  res.cookie(SESSION_COOKIE, secret, { httpOnly: true, secure, sameSite: 'lax', path: dashboardPaths.root });
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure, sameSite: 'lax', path: dashboardPaths.root });
}

/** Reads the browser's session, if its cookie names a live one. */
export function loadSession(deps: DashboardDependencies): RequestHandler {
  return async (req, res, next) => {
    const secret = parse(req.get('cookie') ?? '')[SESSION_COOKIE];
    if (secret) {
      const session = await resumeSession(deps, secret);
      if (session) res.locals['session'] = { secret, session } satisfies SessionLocals;
    }
    res.locals['requestId'] ??= randomUUID();
    next();
  };
}

/**
 * Pages behind sign-in: no session → the sign-in page (coming back here afterwards); a session that
 * still owes its second factor → the code page.
 */
export const requireUser: RequestHandler = (req, res, next) => {
  const found = sessionOf(res);
  if (!found) {
    if (req.method !== 'GET')
      return renderProblem(res, 403, 'Signed out', 'Your session has ended. Sign in again, then repeat what you were doing.');
    return res.redirect(303, `${dashboardPaths.signIn}?next=${encodeURIComponent(req.originalUrl)}`);
  }
  if (found.session.secondFactorDue) return res.redirect(303, dashboardPaths.signInCode);
  next();
};

/**
 * CSRF protection on every change (docs/adr/0028): the request must come from our own page (the
 * browser's Sec-Fetch-Site or Origin) and, once signed in, carry the session's token in `_csrf`.
 */
export const csrfProtected: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const found = sessionOf(res);
  const token = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>)['_csrf'] : undefined;
  const tokenOk = !found || (typeof token === 'string' && sameSecret(token, found.session.csrfToken));
  if (isSameOrigin(req) && tokenOk) return next();
  renderProblem(res, 403, 'Request refused', 'This form came from somewhere else or has expired. Go back, reload the page and try again.');
};

/** The client address the sign-in limits count (X-Forwarded-For as far as the trusted proxies go). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
