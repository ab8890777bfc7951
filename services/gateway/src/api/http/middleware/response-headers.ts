import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { newId } from '@hc/ids';
import { locals } from '../locals.ts';

/**
 * Headers on every response, errors included: a request id to quote to support, no caching, and the
 * security headers that fit a JSON API (no CORS headers are ever sent: the API is server to server).
 */
export const requestId: RequestHandler = (_req, res, next) => {
  const id = newId('request');
  locals(res).requestId = id;
  res.setHeader('X-Request-Id', id);
  res.setHeader('Cache-Control', 'no-store');
  next();
};

export const securityHeaders: RequestHandler = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
});
