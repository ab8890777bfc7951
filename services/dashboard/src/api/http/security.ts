import type { RequestHandler } from 'express';
import { strictPageHeaders } from '@hc/web';

/**
 * Security headers (docs/adr/0029): the strict page policy of @hc/web with scripts only from our own
 * origin — no inline script or style at all (the one script and the stylesheet are files under
 * /dashboard/assets) — no framing, no referrer, and no caching of any page (they show customers'
 * data and, once, a new API key).
 */
export function securityHeaders(): RequestHandler[] {
  return strictPageHeaders(["'self'"]);
}
