import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { newId } from '@hc/ids';
import { headersOf } from '@hc/web';
import { locals } from '../locals.ts';

const helmetHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
});

/**
 * The headers helmet sets with the options above, taken once at start-up (@hc/web's `headersOf`):
 * none depends on the request, so each response copies them instead of running helmet's dozen
 * middlewares (issue 33). helmet stays the source of truth for what the headers say.
 */
const SECURITY_HEADERS = headersOf(helmetHeaders);

/**
 * Headers on every response, errors included, set first: a request id to quote to support, no
 * caching, and the security headers that fit a JSON API (no CORS headers are ever sent: the API is
 * server to server).
 */
export const responseHeaders: RequestHandler = (_req, res, next) => {
  const id = newId('request');
  locals(res).requestId = id;
  res.setHeader('X-Request-Id', id);
  res.setHeader('Cache-Control', 'no-store');
  for (const name of SECURITY_HEADERS.removed) res.removeHeader(name);
  for (const [name, value] of SECURITY_HEADERS.set) res.setHeader(name, value);
  next();
};
