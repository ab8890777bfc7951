import { type Router, type Request, type Response } from 'express';
import type { Account } from '@hc/proto/accounts/v1';
import { ApiError } from '@hc/errors';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { changePayoutWallet } from '../../use-cases/change-payout-wallet.ts';
import { listStartedUnpaid } from '../../use-cases/list-started-unpaid.ts';
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor, LOCKED } from '../../use-cases/two-factor-setup.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { auditDetail } from './audit-trail.ts';
import { isMode, type Mode } from '../../domain/dashboard-user.ts';
import { modeOf } from './mode.ts';
import { dashboardPaths, modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { formRefusal, formValues } from './forms.ts';
import { renderPage } from './render.ts';
import { callContext, clientAddress, signedIn } from './session.ts';
import { signedInRouter } from './routers.ts';

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

const WRONG_PROOF =
  'That password or code is not right; the wallet was not changed. After 5 wrong tries, sign-in is paused for 15 minutes.';

/** The settings page, with the wallet form's problem (its message, the field at fault) when refused. */
function renderSettings(
  res: Response,
  refused: { problem: string; field: 'payout_wallet' | 'password'; wallet: string } | null,
  status = 200,
): void {
  renderPage(
    res,
    'settings.njk',
    {
      title: refused ? 'Error: Settings' : 'Settings',
      area: 'settings',
      problem: refused?.problem ?? null,
      problemField: refused?.field ?? null,
      wallet: refused?.wallet ?? null,
      twoFactor: signedIn(res).session.user.totpSecret !== null,
    },
    status,
  );
}

const CHANGED_FLASH: Record<'changed' | 'unchanged', (removed: boolean) => string> = {
  changed: (removed) =>
    `${removed ? 'Payout wallet removed.' : 'Payout wallet saved.'} Every user of the account sees a notice of the change.`,
  unchanged: () => 'The payout wallet is unchanged.',
};

/**
 * /dashboard/{mode}/settings: the account's status and payout wallet (Live creates need one). The
 * wallet changes only with the user's password (and code, with two-factor on), and every user of the
 * account is told (docs/adr/0038).
 */
export function settingsRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/settings', (_req, res) => {
    renderSettings(res, null);
  });

  router.post('/settings/payout-wallet', async (req, res) => {
    const mode = modeOf(res);
    const user = signedIn(res).session.user;
    const form = formValues(req, ['payout_wallet', 'password', 'code']);
    const typed = form['payout_wallet']!.trim();
    const account = res.locals['account'] as Account;
    // Addresses, never the password or code: the audit line's before → after.
    auditDetail(res, { before: account.payoutWallet || null, after: typed || null });
    let outcome;
    try {
      outcome = await changePayoutWallet(
        deps,
        user,
        {
          current: account.payoutWallet ?? null,
          typed,
          password: form['password']!,
          code: form['code']!,
          clientAddress: clientAddress(req),
        },
        async (wallet) => {
          await platform.admin.setPayoutWallet({ payoutWallet: wallet ?? '' }, callContext(res, mode));
        },
        // Live: only Live money is forwarded to the wallet (docs/adr/0081).
        () => listStartedUnpaid((request) => platform.checkout.listPayments(request, callContext(res, 'live'))),
      );
    } catch (error) {
      // The gateway refused the address, or the account (suspended): shown on the form.
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return renderSettings(res, { problem: refusal.message, field: 'payout_wallet', wallet: typed }, refusal.httpStatus);
    }
    if (outcome === 'wrong' || outcome === 'locked')
      return renderSettings(
        res,
        { problem: outcome === 'locked' ? LOCKED : WRONG_PROOF, field: 'password', wallet: typed },
        outcome === 'locked' ? 429 : 401,
      );
    await redirectWithFlash(deps, res, modePath(mode, 'settings'), CHANGED_FLASH[outcome](typed === ''));
  });

  return router;
}

/** /dashboard/two-factor: turn the authenticator-app code on (with a confirming code) or off. */
export function twoFactorRoutes(deps: DashboardDependencies): Router {
  const router = signedInRouter('');

  router.get(dashboardPaths.twoFactor, (req, res) => {
    const user = signedIn(res).session.user;
    const from = cameFrom(req);
    renderPage(res, 'two-factor.njk', { title: 'Two-factor sign-in', on: user.totpSecret !== null, setup: null, problem: null, from });
  });

  router.post(`${dashboardPaths.twoFactor}/begin`, async (req, res) => {
    const user = signedIn(res).session.user;
    // Already on (another tab turned it on, or a repeated post): the page says so.
    if (user.totpSecret) return redirectWithFlash(deps, res, twoFactorPage(cameFrom(req)), 'Two-factor sign-in is already on.');
    const setup = await beginTwoFactor(deps, user);
    renderPage(res, 'two-factor.njk', { title: 'Two-factor sign-in', on: false, setup, problem: null, from: cameFrom(req) });
  });

  router.post(`${dashboardPaths.twoFactor}/confirm`, async (req, res) => {
    const user = signedIn(res).session.user;
    try {
      await confirmTwoFactor(deps, user, field(req, 'code'), clientAddress(req));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const setup = user.totpPendingSecret ? await beginTwoFactor(deps, user) : null;
      const page = { title: 'Error: Two-factor sign-in', on: false, setup, problem: error.message, from: cameFrom(req) };
      return renderPage(res, 'two-factor.njk', page, error.httpStatus);
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
      await disableTwoFactor(deps, signedIn(res).session.user, field(req, 'code'), clientAddress(req));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const page = { title: 'Error: Two-factor sign-in', on: true, setup: null, problem: error.message, from: cameFrom(req) };
      return renderPage(res, 'two-factor.njk', page, error.httpStatus);
    }
    await redirectWithFlash(deps, res, twoFactorPage(cameFrom(req)), 'Two-factor sign-in is off.');
  });

  return router;
}
