import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { newId } from '@hc/ids';
import { locals } from '../locals.ts';

const helmetHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
});

/**
 * The headers helmet sets with the options above, taken once at start-up: none depends on the
 * request, so each response copies them instead of running helmet's dozen middlewares (issue 33).
 * helmet stays the source of truth for what the headers say.
 */
const SECURITY_HEADERS: readonly (readonly [string, string])[] = (() => {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let finished = false;
  helmetHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, () => (finished = true));
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
})();

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
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  next();
};
