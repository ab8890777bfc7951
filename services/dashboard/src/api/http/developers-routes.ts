import type { Router } from 'express';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { keysRoutes, keyView } from './keys-routes.ts';
import { modeOf } from './mode.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { renderPage } from './render.ts';
import { callContext } from './session.ts';
import { endpointView, eventView, webhooksRoutes } from './webhooks-routes.ts';
import { signedInRouter } from './routers.ts';

/** /dashboard/{mode}/developers: the mode's API keys, webhook endpoints and latest events on one page. */
export function developersRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');
  router.get('/developers', async (_req, res) => {
    const ctx = callContext(res, modeOf(res));
    const [{ keys }, { endpoints }, { events }] = await Promise.all([
      platform.admin.listApiKeys({}, ctx),
      platform.webhooks.listEndpoints({}, ctx),
      platform.webhooks.listEvents({ limit: 10, maxAgeSeconds: 0n }, ctx),
    ]);
    renderPage(res, 'developers.njk', {
      title: 'Developers',
      area: 'developers',
      keys: keys.map(keyView),
      endpoints: endpoints.map(endpointView),
      events: events.map(eventView),
    });
  });
  router.use(keysRoutes(platform, deps));
  router.use(webhooksRoutes(platform, deps));
  return router;
}
