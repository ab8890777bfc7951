import { type Router, type Response } from 'express';
import { CURRENCIES } from '@hc/money';
import { checkoutFieldNames, checkoutRequest, PLAN_ROWS, type FormValues } from '../../domain/link-forms.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { formRefusal, formValues, problemOf } from './forms.ts';
import { checkoutView, creatingAccount } from './link-views.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

const PLAN_NUMBERS = Array.from({ length: PLAN_ROWS }, (_, i) => i + 1);

function renderCheckoutForm(res: Response, values: FormValues, problem: ReturnType<typeof problemOf> | null): void {
  renderPage(
    res,
    'links-checkout-new.njk',
    {
      title: problem ? 'Error: New checkout' : 'New checkout',
      area: 'links',
      values,
      problem,
      currencies: CURRENCIES,
      planNumbers: PLAN_NUMBERS,
    },
    problem?.status ?? 200,
  );
}

/**
 * /dashboard/{mode}/links/checkouts/…: reusable checkouts (page, pricing table, widget) — make, show
 * (with the widget's snippet), archive — over checkout's admin service like the operator CLI's
 * `checkouts`. The list is on the area's page (links-routes.ts).
 */
export function checkoutsRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/links/checkouts/new', (_req, res) => {
    renderCheckoutForm(res, { kind: 'page', price: 'fixed', currency: 'EUR' }, null);
  });

  router.post('/links/checkouts', async (req, res) => {
    const mode = modeOf(res);
    const values = formValues(req, checkoutFieldNames());
    let id: string;
    try {
      const { checkout } = await platform.checkoutAdmin.createCheckout(
        { ...checkoutRequest(values), account: creatingAccount(res) },
        callContext(res, mode),
      );
      id = checkout!.id;
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return renderCheckoutForm(res, values, problemOf(refusal));
    }
    await redirectWithFlash(deps, res, modePath(mode, 'links', 'checkouts', id), 'Checkout created.');
  });

  router.get('/links/checkouts/:id', async (req, res) => {
    const { checkout } = await platform.checkoutAdmin.getCheckout({ id: req.params['id']! }, callContext(res, modeOf(res)));
    renderPage(res, 'links-checkout-show.njk', { title: 'Checkout', area: 'links', checkout: checkoutView(checkout!) });
  });

  // The confirmation step, a page of its own so it works without script.
  router.get('/links/checkouts/:id/archive', async (req, res) => {
    const { checkout } = await platform.checkoutAdmin.getCheckout({ id: req.params['id']! }, callContext(res, modeOf(res)));
    renderPage(res, 'links-checkout-archive.njk', { title: 'Archive checkout', area: 'links', checkout: checkoutView(checkout!) });
  });

  router.post('/links/checkouts/:id/archive', async (req, res) => {
    const mode = modeOf(res);
    const id = req.params['id']!;
    await platform.checkoutAdmin.archiveCheckout({ id }, callContext(res, mode));
    await redirectWithFlash(deps, res, modePath(mode, 'links', 'checkouts', id), 'Checkout archived: its pages take no new payments.');
  });

  return router;
}
