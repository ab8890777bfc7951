import type { ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { randomBase64 } from '@hc/ids';
import { isSameOrigin, strictPageHeaders } from '@hc/web';

/**
 * Security headers (@hc/web's strict page policy): the only scripts are those carrying this response's
 * nonce, no framing (clickjacking on a payment page), no referrer (the page address names the payment),
 * and no caching of a page that shows a buyer's email. Forms post to the pages only, except the
 * provider form of the page that lists providers, whose answer redirects to those providers (Chromium
 * applies form-action to a form's redirects): their origins are added for that response only
 * (allowFormTargets).
 */
export function securityHeaders(): RequestHandler[] {
  const nonce: RequestHandler = (_req, res, next) => {
    // 128 bits, from a pool refilled 4 KB at a time rather than a call into the OS per answer.
    res.locals['cspNonce'] = randomBase64(16);
    next();
  };
  const cspNonce = (_req: unknown, res: ServerResponse): string => `'nonce-${(res as Response).locals['cspNonce'] as string}'`;
  return [nonce, ...strictPageHeaders([cspNonce, "'strict-dynamic'"])];
}

/**
 * The widget's page (/c/{chk_id}/embed) is made to sit in the merchant's own site, on any origin: its
 * response alone may be framed (frame-ancestors widened to http and https origins). It shows no buyer
 * data and its only form opens the payment in a new tab, whose page keeps frame-ancestors 'none'.
 */
export function allowFraming(res: Response): void {
  const policy = res.get('Content-Security-Policy');
  if (!policy) return;
  res.set('Content-Security-Policy', policy.replace("frame-ancestors 'none'", 'frame-ancestors https: http:'));
  res.removeHeader('X-Frame-Options');
}

/**
 * Lets this response's forms reach the given URLs' origins. The policy was written before the route
 * knew its providers, so the form-action directive of this response's header is widened here.
 */
export function allowFormTargets(res: Response, urls: readonly string[]): void {
  const origins = [...new Set(urls.map((url) => new URL(url).origin))];
  const policy = res.get('Content-Security-Policy');
  if (!policy || origins.length === 0) return;
  res.set('Content-Security-Policy', policy.replace("form-action 'self'", `form-action 'self' ${origins.join(' ')}`));
}

/**
 * CSRF: page actions only from the pages themselves. The buyer has no cookie or login to abuse (the
 * payment id in the address is the only credential), so the browser's own account of where a form
 * came from is enough: Sec-Fetch-Site must be same-origin, or, from browsers without it, Origin must
 * be this host. A request carrying neither header is not a browser's and cannot be forged by a site.
 */
export const sameOriginOnly: RequestHandler = (req, res, next) => {
  if (isSameOrigin(req)) return next();
  res.status(403).type('text/plain').send('Forbidden: page actions come from the payment page only.');
};
