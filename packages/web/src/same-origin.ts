import type { Request } from 'express';

/**
 * The browser's own account of where a request came from: Sec-Fetch-Site must be same-origin or, from
 * browsers without it, Origin must be this host. A request carrying neither is not a browser's and
 * cannot have been forged by another site. One CSRF check of every page form.
 */
export function isSameOrigin(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = req.get('origin');
  return origin === undefined || origin === `${req.protocol}://${req.get('host')}`;
}
