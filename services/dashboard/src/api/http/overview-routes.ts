import type { Router } from 'express';
import type { Endpoint } from '@hc/proto/webhooks/v1';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { formatMoney, formatTime, millisDate } from '../../domain/format.ts';
import { OVERVIEW_PERIODS, OVERVIEW_STATUSES, overviewPeriod, overviewView } from '../../domain/overview-view.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import { renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

/** An endpoint that needs the merchant: disabled (by hand, gone, or failing) or failing now (webhooks decides). */
const needsAttention = (endpoint: Endpoint): boolean => endpoint.status === 'disabled' || endpoint.failingSince !== undefined;

/**
 * /dashboard/{mode}/overview, the dashboard's home (docs/adr/0058): checkout's counts, volumes and
 * per-day figures for the chosen period, drawn as SVG on the server, and what needs the merchant —
 * held payments they may accept and webhook endpoints that fail. A read every role may make.
 */
export function overviewRoutes(platform: PlatformClients): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/', (_req, res) => {
    res.redirect(303, modePath(modeOf(res), 'overview'));
  });

  router.get('/overview', async (req, res) => {
    const mode = modeOf(res);
    const ctx = callContext(res, mode);
    const period = overviewPeriod(req.query['period']);
    const [overview, { endpoints }] = await Promise.all([
      platform.checkoutAdmin.getOverview({ days: period.days }, ctx),
      platform.webhooks.listEndpoints({}, ctx),
    ]);
    renderPage(res, 'overview.njk', {
      title: 'Overview',
      area: 'overview',
      period,
      periods: OVERVIEW_PERIODS.map((p) => ({ ...p, href: `${modePath(mode, 'overview')}?period=${p.id}`, current: p.id === period.id })),
      statuses: OVERVIEW_STATUSES,
      view: overviewView(overview),
      held: overview.held.map((payment) => ({
        id: payment.id,
        description: payment.description,
        amount: formatMoney(payment.amount, payment.currency),
        reason: payment.holdReason ?? null,
        created: formatTime(millisDate(payment.createdAt)),
      })),
      endpoints: endpoints.filter(needsAttention).map((endpoint) => ({
        id: endpoint.id,
        url: endpoint.url,
        status: endpoint.status,
        reason: endpoint.disabledReason ?? null,
        failingSince: formatTime(endpoint.failingSince),
      })),
    });
  });

  return router;
}
