import { type Router, type Request, type Response } from 'express';
import { ApiError } from '@hc/errors';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { leaveFlash } from '../../use-cases/leave-flash.ts';
import { passSecondFactor } from '../../use-cases/second-factor.ts';
import { setPasswordWithLink, userOfPasswordLink } from '../../use-cases/set-password.ts';
import { signIn } from '../../use-cases/sign-in.ts';
import { signOut } from '../../use-cases/sign-out.ts';
import { dashboardPaths, home, safeNext } from './paths.ts';
import { renderPage } from './render.ts';
import { clearSessionCookie, clientAddress, sessionOf, setSessionCookie } from './session.ts';
import { unguardedRouter } from './routers.ts';

const WRONG = 'That email and password do not match an account. After 5 wrong tries, sign-in is paused for 15 minutes.';

/** A form field's value, '' when absent. */
function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Sign-in (password, then the code when two-factor is on), sign-out, and the one-time set-password page. */
export function authRoutes(deps: DashboardDependencies, secureCookies: boolean): Router {
  const router = unguardedRouter();
  router.get(dashboardPaths.root, (_req, res) => {
    res.redirect(303, sessionOf(res) ? home() : dashboardPaths.signIn);
  });

  router.get(dashboardPaths.signIn, (req, res) => {
    const found = sessionOf(res);
    if (found && !found.session.secondFactorDue) return res.redirect(303, safeNext(req.query['next']));
    renderPage(res, 'sign-in.njk', {
      title: 'Sign in',
      next: safeNext(req.query['next']),
      email: '',
      problem: null,
      signedOut: req.query['signed-out'] === '1',
    });
  });

  router.post(dashboardPaths.signIn, async (req, res) => {
    const email = field(req, 'email');
    const next = safeNext(field(req, 'next'));
    const result = await signIn(deps, { email, password: field(req, 'password'), clientAddress: clientAddress(req) });
    if (!result.ok) return renderPage(res, 'sign-in.njk', { title: 'Error: Sign in', next, email, problem: WRONG }, 401);
    // A new session id at every sign-in; the one this browser had before ends.
    const previous = sessionOf(res);
    if (previous) await signOut(deps, previous.secret);
    setSessionCookie(res, result.sessionSecret, secureCookies);
    res.redirect(303, result.secondFactorDue ? `${dashboardPaths.signInCode}?next=${encodeURIComponent(next)}` : next);
  });

  router.get(dashboardPaths.signInCode, (req, res) => {
    const found = sessionOf(res);
    if (!found) return res.redirect(303, dashboardPaths.signIn);
    if (!found.session.secondFactorDue) return res.redirect(303, safeNext(req.query['next']));
    renderPage(res, 'sign-in-code.njk', { title: 'Two-factor code', next: safeNext(req.query['next']), problem: null });
  });

  router.post(dashboardPaths.signInCode, async (req, res) => {
    const found = sessionOf(res);
    if (!found) return res.redirect(303, dashboardPaths.signIn);
    const next = safeNext(field(req, 'next'));
    const result = await passSecondFactor(deps, found.secret, found.session, field(req, 'code'), clientAddress(req));
    if (result.outcome === 'passed') {
      // A new session id from here on: the half-signed-in one (perhaps planted) opens nothing.
      setSessionCookie(res, result.sessionSecret, secureCookies);
      return res.redirect(303, next);
    }
    if (result.outcome === 'signed-out') {
      clearSessionCookie(res, secureCookies);
      return res.redirect(303, `${dashboardPaths.signIn}?signed-out=1`);
    }
    renderPage(
      res,
      'sign-in-code.njk',
      { title: 'Error: Two-factor code', next, problem: 'That code is not right. Check the app and try again.' },
      401,
    );
  });

  router.post(dashboardPaths.signOut, async (_req, res) => {
    const found = sessionOf(res);
    if (found) await signOut(deps, found.secret);
    clearSessionCookie(res, secureCookies);
    res.redirect(303, `${dashboardPaths.signIn}?signed-out=1`);
  });

  setPasswordRoutes(router, deps);
  return router;
}

/** The one-time set-password page a link opens, and its form. */
function setPasswordRoutes(router: Router, deps: DashboardDependencies): void {
  router.get(dashboardPaths.setPassword, async (req, res) => {
    const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
    const user = await userOfPasswordLink(deps, token);
    renderPage(
      res,
      'set-password.njk',
      { title: user ? 'Set your password' : 'Link expired', token, email: user?.email ?? null, problem: null },
      user ? 200 : 410,
    );
  });

  router.post(dashboardPaths.setPassword, async (req, res) => {
    const token = field(req, 'token');
    try {
      await setPasswordWithLink(deps, token, field(req, 'password'));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const user = await userOfPasswordLink(deps, token);
      return renderPage(
        res,
        'set-password.njk',
        { title: 'Error: Set your password', token, email: user?.email ?? null, problem: error.message },
        error.code === 'not_found' ? 410 : error.httpStatus,
      );
    }
    res.redirect(303, `${dashboardPaths.signIn}?password-set=1`);
  });
}

/** After a change: a notice for the next page, then post/redirect/get so reload never repeats it. */
export async function redirectWithFlash(deps: DashboardDependencies, res: Response, to: string, message: string): Promise<void> {
  const found = sessionOf(res);
  if (found) await leaveFlash(deps, found.secret, message);
  res.redirect(303, to);
}
