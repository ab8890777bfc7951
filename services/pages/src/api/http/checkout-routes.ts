import type { Request, Response, Router } from 'express';
import { ApiError, httpStatusOf } from '@hc/errors';
import type { PublicCallContext } from '@hc/grpc';
import { strictFormBody, exactRouter } from '@hc/web';
import type { Checkout } from '@hc/proto/checkout/v1';
import { formatAmount } from '../../domain/locale.ts';
import { languageContext, messagesFor, requestLocale } from './language.ts';
import { pathTo, paths } from '../../paths.ts';
import type { HostedClient } from './pay-routes.ts';
import type { PageLimits } from './rate-limits.ts';
import type { BrandReader } from '../../adapters/brand-reader.ts';
import { dressWithBrand } from './brand-routes.ts';
import { allowFraming, sameOriginOnly } from './security.ts';

// Refusals the page explains next to the field; the words are `checkout.problem.<code>` in locales/*.json.
const PROBLEMS: Record<string, { field: string | null }> = {
  invalid_amount: { field: 'amount' },
  invalid_plans: { field: null },
};

/**
 * /c/{chk_id}: a dashboard checkout's page (checkout page or pricing table), and /c/{chk_id}/embed,
 * the same inside the merchant's site (widget). Viewing never makes a payment: only the page's POST
 * does, then sends the buyer to /pay/{pay_id} (a reload of either page makes no second payment), and
 * those POSTs are limited per buyer address and checkout. A checkout whose shop cannot take payments
 * now (checkout's `unavailable`) is a plain "cannot take payments" page (pageErrors), its POST too.
 */
export function checkoutRoutes(checkout: HostedClient, brands: BrandReader, limits: PageLimits): Router {
  const router = exactRouter();
  // UTF-8 only (@hc/web): a form that is not is 400, never read with U+FFFD or raw escapes.
  const form = strictFormBody({ limit: '2kb', parameterLimit: 5 });
  const ctx = (res: Response): PublicCallContext => ({ requestId: res.locals['requestId'] as string });

  const render = (res: Response, c: Checkout, options: { embedded: boolean; problem?: string; amount?: string }, status = 200) => {
    const locale = requestLocale(res);
    const messages = messagesFor(locale);
    const archived = c.archivedAt !== undefined;
    const problem = options.problem && PROBLEMS[options.problem] ? options.problem : null;
    res.status(archived ? 410 : status).render('checkout.njk', {
      ...languageContext(res, locale),
      title: archived ? messages.text('checkout.archived.title') : c.description,
      merchantName: c.merchantName || messages.text('shop.fallback'),
      embedded: options.embedded,
      payPath: pathTo(paths.checkout.pay, c.id),
      problem: problem ? { field: PROBLEMS[problem]!.field, message: messages.text(`checkout.problem.${problem}`) } : null,
      amount: options.amount ?? '',
      checkout: {
        archived,
        description: c.description,
        currency: c.currency,
        price: c.amount ? formatAmount(c.amount, c.currency, locale) : null,
        minAmount: c.minAmount ? formatAmount(c.minAmount, c.currency, locale) : null,
        maxAmount: c.maxAmount ? formatAmount(c.maxAmount, c.currency, locale) : null,
        plans: c.plans.map((p) => ({ label: p.label, price: formatAmount(p.amount, c.currency, locale) })),
      },
    });
  };
  /** The checkout, with its shop's brand left for the layout. */
  const load = async (id: string, res: Response): Promise<Checkout> => {
    const { checkout: found, accountId } = await checkout.getHostedCheckout({ id }, ctx(res));
    await dressWithBrand(brands, res, accountId);
    return found!;
  };

  router.get(paths.checkout.page, limits.views, async (req: Request<{ id: string }>, res) => {
    render(res, await load(req.params.id, res), { embedded: false });
  });

  router.get(paths.checkout.embed, limits.views, async (req: Request<{ id: string }>, res) => {
    // The widget's frame says so too when the shop cannot take payments (framable, like the widget).
    const c = await load(req.params.id, res).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'unavailable') allowFraming(res);
      throw error;
    });
    if (c.kind !== 'widget') return res.redirect(303, pathTo(paths.checkout.page, c.id));
    allowFraming(res);
    render(res, c, { embedded: true });
  });

  router.post(
    paths.checkout.pay,
    sameOriginOnly,
    limits.actions,
    limits.checkoutPayments,
    form,
    async (req: Request<{ id: string }>, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const plan = typeof body['plan'] === 'string' && /^[0-9]$/.test(body['plan']) ? Number(body['plan']) : undefined;
      const amount = typeof body['amount'] === 'string' ? body['amount'] : undefined;
      try {
        const { paymentId } = await checkout.payCheckout({ id: req.params.id, plan, amount }, ctx(res));
        res.redirect(303, pathTo(paths.pay.page, paymentId));
      } catch (error) {
        if (!(error instanceof ApiError) || !(error.code in PROBLEMS || error.code === 'archived')) throw error;
        const c = await load(req.params.id, res);
        render(res, c, { embedded: false, problem: error.code, amount: amount ?? '' }, httpStatusOf(error.code));
      }
    },
  );
  return router;
}
