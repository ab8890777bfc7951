import { Router, type Express, type RouterOptions } from 'express';

/**
 * One spelling per address, in every HTTP process of the platform (docs/security.md 47.2). Express
 * matches routes ignoring letter case and a trailing slash unless told otherwise, while a check
 * written against an address (a role table, a log, a proxy rule) reads it as written: `/audit`,
 * `/Audit`, `/audit/` and `/audit.CSV` would be one page to the router and four to the check. With
 * both settings on, an address matches a route only as the route spells it; any other spelling is
 * the app's not-found answer.
 */
export function exactRouting(app: Express): Express {
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  return app;
}

/** A Router with exactRouting's rules (Express's Router does not take them from the app). */
export function exactRouter(options: Omit<RouterOptions, 'caseSensitive' | 'strict'> = {}): Router {
  return Router({ ...options, caseSensitive: true, strict: true });
}
