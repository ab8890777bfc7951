import type { RequestHandler, Router } from 'express';
import { exactRouter } from '@hc/web';
import { actionEnds } from './audit-trail.ts';
import { routeGuard, type RouteMethod } from './authorize.ts';

/**
 * Every router of the dashboard is made here, so that routing and the role check agree (docs/adr/0055,
 * docs/security.md 47.2). Letters are matched case-sensitively and a trailing slash is a different
 * address (`strict`): `/audit`, `/Audit`, `/audit/` and `/audit.CSV` are not one page under several
 * spellings. Every route of a signed-in router is registered with its guard as the first handler —
 * the role check runs on the address Express matched, never on a second reading of the path.
 */

/** Where a signed-in router is mounted: at the root, or under /dashboard/:mode (app.ts). */
export type Mount = '' | '/dashboard/:mode';

/** The route's own handler, with the end of its action marked for the audit trail (returned or thrown). */
function tracked(handler: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    let threw = false;
    try {
      await handler(req, res, next);
    } catch (error: unknown) {
      threw = true;
      throw error;
    } finally {
      actionEnds(res, threw);
    }
  };
}

/**
 * A router of signed-in pages mounted at `mount`: `get` and `post` register the route behind its guard
 * (a POST with no line in ACTION_ROUTES throws here, at start); other methods are not offered.
 */
export function signedInRouter(mount: Mount): Router {
  const router = exactRouter({ mergeParams: true });
  const register = (method: RouteMethod, add: (path: string, ...handlers: RequestHandler[]) => unknown) =>
    ((path: string, ...handlers: RequestHandler[]) => {
      if (handlers.length !== 1) throw new Error(`${method} ${mount}${path}: one handler per route (its guard comes first)`);
      add(path, routeGuard(method, `${mount}${path}`), tracked(handlers[0]!));
      return router;
    }) as Router['get'];
  router.get = register('GET', router.get.bind(router));
  router.post = register('POST', router.post.bind(router));
  for (const method of ['put', 'patch', 'delete', 'all'] as const) {
    router[method] = (() => {
      throw new Error(`the dashboard's pages are GET and POST only (${method} is not offered)`);
    }) as Router['get'];
  }
  return router;
}

/**
 * A router whose own routes have no role: the pages before sign-in (sign-in, set-password, sign-out:
 * no user yet), and the mount of a mode's signed-in routers (app.ts). Only auth-routes.ts and app.ts
 * use it (routers.test.ts).
 */
export function unguardedRouter(): Router {
  return exactRouter({ mergeParams: true });
}
