import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers (docs/adr/0029): a strict CSP with no inline script or style at all (the one
 * script and the stylesheet are files under /dashboard/assets), no framing, no referrer (addresses
 * name payments and customers), and no caching of any page (they show customers' data and, once,
 * a new API key).
 */
export function securityHeaders(): RequestHandler[] {
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  return [noStore, headers];
}

/**
 * The browser's own account of where a form came from: Sec-Fetch-Site must be same-origin or, from
 * browsers without it, Origin must be this host. One of the two CSRF checks (the other is the
 * session's token in every form, src/http/session.ts).
 */
export function sameOrigin(req: Parameters<RequestHandler>[0]): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = req.get('origin');
  return origin === undefined || origin === `${req.protocol}://${req.get('host')}`;
}
