import { Router, type Request } from 'express';
import { ApiError } from '@hc/errors';
import type { DashboardDependencies } from '../use-cases/dependencies.ts';
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor } from '../use-cases/two-factor-setup.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { formRefusal } from './forms.ts';
import { isMode, type Mode } from '../domain/dashboard-user.ts';
import { modeOf } from './mode.ts';
import { dashboardPaths, modePath } from './paths.ts';
import type { PlatformClients } from './platform-clients.ts';
import { renderPage } from './render.ts';
import { callContext, signedIn } from './session.ts';

/**
 * The mode the two-factor page was opened from (`?mode=`), so "Back to settings" and the page's own
 * forms return there; Test when absent or not a mode. The page itself belongs to no mode.
 */
function cameFrom(req: Request): Mode {
  const mode = req.query['mode'];
  return typeof mode === 'string' && isMode(mode) ? mode : 'test';
}

const twoFactorPage = (mode: Mode): string => `${dashboardPaths.twoFactor}?mode=${mode}`;

function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** /dashboard/{mode}/settings: the account's status and payout wallet (Live creates need one). */
export function settingsRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = Router({ mergeParams: true });

  router.get('/settings', (_req, res) => {
    renderPage(res, 'settings.njk', {
      title: 'Settings',
      area: 'settings',
      problem: null,
      wallet: null,
      twoFactor: signedIn(res).session.user.totpSecret !== null,
    });
  });

  router.post('/settings/payout-wallet', async (req, res) => {
    const mode = modeOf(res);
    const wallet = field(req, 'payout_wallet').trim();
    try {
      await platform.admin.setPayoutWallet({ payoutWallet: wallet }, callContext(res, mode));
    } catch (error) {
      // A bad wallet, or a suspended account (403 suspended, ADR 0037): shown on the form again.
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return renderPage(
        res,
        'settings.njk',
        {
          title: 'Error: Settings',
          area: 'settings',
          problem: refusal.message,
          wallet,
          twoFactor: signedIn(res).session.user.totpSecret !== null,
        },
        refusal.httpStatus,
      );
    }
    await redirectWithFlash(deps, res, modePath(mode, 'settings'), wallet ? 'Payout wallet saved.' : 'Payout wallet removed.');
  });

  return router;
}

/** /dashboard/two-factor: turn the authenticator-app code on (with a confirming code) or off. */
export function twoFactorRoutes(deps: DashboardDependencies): Router {
  const router = Router();

  router.get(dashboardPaths.twoFactor, (req, res) => {
    const user = signedIn(res).session.user;
    const from = cameFrom(req);
    renderPage(res, 'two-factor.njk', { title: 'Two-factor sign-in', on: user.totpSecret !== null, setup: null, problem: null, from });
  });

  router.post(`${dashboardPaths.twoFactor}/begin`, async (req, res) => {
    const setup = await beginTwoFactor(deps, signedIn(res).session.user);
    renderPage(res, 'two-factor.njk', { title: 'Two-factor sign-in', on: false, setup, problem: null, from: cameFrom(req) });
  });

  router.post(`${dashboardPaths.twoFactor}/confirm`, async (req, res) => {
    const user = signedIn(res).session.user;
    try {
      await confirmTwoFactor(deps, user, field(req, 'code'));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const setup = user.totpPendingSecret ? await beginTwoFactor(deps, user) : null;
      const page = { title: 'Error: Two-factor sign-in', on: false, setup, problem: error.message, from: cameFrom(req) };
      return renderPage(res, 'two-factor.njk', page, 400);
    }
    await redirectWithFlash(
      deps,
      res,
      twoFactorPage(cameFrom(req)),
      'Two-factor sign-in is on: sign-in will ask for a code from your app.',
    );
  });

  router.post(`${dashboardPaths.twoFactor}/disable`, async (req, res) => {
    try {
      await disableTwoFactor(deps, signedIn(res).session.user, field(req, 'code'));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const page = { title: 'Error: Two-factor sign-in', on: true, setup: null, problem: error.message, from: cameFrom(req) };
      return renderPage(res, 'two-factor.njk', page, 400);
    }
    await redirectWithFlash(deps, res, twoFactorPage(cameFrom(req)), 'Two-factor sign-in is off.');
  });

  return router;
}
