import { answered } from '@hc/conversions';
import { type Router, type Response } from 'express';
import { ApiError } from '@hc/errors';
import { CURRENCIES } from '@hc/money';
import { LINK_FIELDS, linkRequest, type FormValues } from '../../domain/link-forms.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { formRefusal, formValues, problemOf } from './forms.ts';
import { checkoutView, creatingAccount, linkView } from './link-views.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { isInvalidCursor, renderNoSuchPage, renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

const PAGE_SIZE = 20;
const LIFETIMES = ['1h', '24h', '3d', '7d', '30d', '90d'];

function renderLinkForm(res: Response, values: FormValues, problem: ReturnType<typeof problemOf> | null): void {
  renderPage(
    res,
    'links-new.njk',
    {
      title: problem ? 'Error: New payment link' : 'New payment link',
      area: 'links',
      values,
      problem,
      currencies: CURRENCIES,
      lifetimes: LIFETIMES,
    },
    problem?.status ?? 200,
  );
}

/**
 * /dashboard/{mode}/links: payment links (make, list, show, cancel) and the list of checkouts
 * (checkouts-routes.ts has the rest), over checkout's admin service like the operator CLI's `links`.
 */
export function linksRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/links', async (req, res) => {
    const ctx = callContext(res, modeOf(res));
    // Two lists, each paged on its own: `after` pages the links, `checkouts_after` the checkouts.
    const after = typeof req.query['after'] === 'string' ? req.query['after'] : undefined;
    const checkoutsAfter = typeof req.query['checkouts_after'] === 'string' ? req.query['checkouts_after'] : undefined;
    try {
      const [links, checkouts] = await Promise.all([
        platform.checkoutAdmin.listPaymentLinks({ limit: PAGE_SIZE, startingAfter: after }, ctx),
        platform.checkoutAdmin.listCheckouts({ limit: PAGE_SIZE, startingAfter: checkoutsAfter }, ctx),
      ]);
      const shown = links.payments.map(linkView);
      const shownCheckouts = checkouts.checkouts.map(checkoutView);
      renderPage(res, 'links-index.njk', {
        title: 'Links and checkouts',
        area: 'links',
        links: shown,
        next: links.hasMore ? shown.at(-1)?.id : null,
        paged: after !== undefined,
        checkouts: shownCheckouts,
        nextCheckouts: checkouts.hasMore ? shownCheckouts.at(-1)?.id : null,
        checkoutsPaged: checkoutsAfter !== undefined,
      });
    } catch (error) {
      // A cursor of another account or mode, or a deleted one: not a page of this list.
      if (isInvalidCursor(error)) return renderNoSuchPage(res);
      throw error;
    }
  });

  router.get('/links/new', (_req, res) => {
    renderLinkForm(res, { currency: 'EUR', lifetime: '7d' }, null);
  });

  router.post('/links', async (req, res) => {
    const mode = modeOf(res);
    const values = formValues(req, LINK_FIELDS);
    let id: string;
    try {
      const { payment } = await platform.checkoutAdmin.createPaymentLink(
        { ...linkRequest(values), account: creatingAccount(res) },
        callContext(res, mode),
      );
      id = linkView(answered(payment, 'payment')).id;
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return renderLinkForm(res, values, problemOf(refusal));
    }
    await redirectWithFlash(deps, res, modePath(mode, 'links', id), 'Payment link created. Send its address to the buyer.');
  });

  router.get('/links/:id', async (req, res) => {
    const { payment } = await platform.checkoutAdmin.getPaymentLink({ id: req.params['id']! }, callContext(res, modeOf(res)));
    renderPage(res, 'links-show.njk', {
      title: 'Payment link',
      area: 'links',
      link: linkView(answered(payment, 'payment')),
      problem: null,
    });
  });

  // The confirmation step, a page of its own so it works without script.
  router.get('/links/:id/cancel', async (req, res) => {
    const { payment } = await platform.checkoutAdmin.getPaymentLink({ id: req.params['id']! }, callContext(res, modeOf(res)));
    renderPage(res, 'links-cancel.njk', { title: 'Cancel payment link', area: 'links', link: linkView(answered(payment, 'payment')) });
  });

  router.post('/links/:id/cancel', async (req, res) => {
    const mode = modeOf(res);
    const id = req.params['id']!;
    try {
      await platform.checkoutAdmin.cancelPaymentLink({ id }, callContext(res, mode));
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'not_cancelable') throw error;
      const { payment } = await platform.checkoutAdmin.getPaymentLink({ id }, callContext(res, mode));
      return renderPage(
        res,
        'links-show.njk',
        { title: 'Error: Payment link', area: 'links', link: linkView(answered(payment, 'payment')), problem: error.message },
        409,
      );
    }
    await redirectWithFlash(deps, res, modePath(mode, 'links', id), 'Payment link canceled: the buyer can no longer pay it.');
  });

  return router;
}
