import type { Request, Router } from 'express';
import type { PublicCallContext } from '@hc/grpc';
import { fromMessage } from '../../domain/hosted-session.ts';
import { trackingStatus } from '../../domain/tracking.ts';
import { formatAmount } from '../../domain/locale.ts';
import { pathTo, paths } from '../../paths.ts';
import type { HostedClient } from './pay-routes.ts';
import type { PageLimits } from './rate-limits.ts';
import type { BrandReader } from '../../adapters/brand-reader.ts';
import { dressWithBrand } from './brand-routes.ts';
import { renderNotFound } from './render.ts';
import { languageContext, messagesFor, sessionLocale } from './language.ts';
import { fromUnixSeconds } from '@hc/conversions';
import { exactRouter } from '@hc/web';

/**
 * /track/{id}: the read-only page of a payment link, for the buyer: what it is for and where it
 * stands. No form and no action; a payment that is not a link has no tracking page (404).
 */
export function trackRoutes(checkout: HostedClient, brands: BrandReader, limits: PageLimits): Router {
  const router = exactRouter();
  router.get(paths.track, limits.views, async (req: Request<{ id: string }>, res) => {
    const ctx: PublicCallContext = { requestId: res.locals['requestId'] as string };
    const session = fromMessage((await checkout.getHostedSession({ id: req.params.id }, ctx)).session!);
    if (session.source !== 'payment_link') return renderNotFound(res);
    await dressWithBrand(brands, res, session.accountId);
    const status = trackingStatus(session);
    const locale = sessionLocale(res, session.locale);
    const messages = messagesFor(locale);
    res.render('track.njk', {
      ...languageContext(res, locale),
      title: messages.text(`track.${status.key}.title`),
      status,
      session,
      merchantName: session.merchantName || messages.text('shop.fallback'),
      amount: formatAmount(session.amount, session.currency, locale),
      payUrl: status.payable ? pathTo(paths.pay.page, session.id) : null,
      expiresAt: fromUnixSeconds(session.expiresAt),
    });
  });
  return router;
}
