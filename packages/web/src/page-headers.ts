import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** A script-src entry: a fixed source, or one computed per response (a CSP nonce). */
export type ScriptSource = string | ((req: IncomingMessage, res: ServerResponse) => string);

/**
 * The security headers of our server-rendered pages (helmet): a strict CSP — nothing by default,
 * scripts only from `scriptSrc`, styles, images and fetches from our own origin, forms posting to our
 * own origin, no framing, no <base> — no referrer (page addresses name payments and customers), and
 * no caching (pages show a buyer's or a merchant's data). A route may widen its own response's policy
 * afterwards (pages' allowFraming, allowFormTargets).
 */
export function strictPageHeaders(scriptSrc: readonly ScriptSource[]): RequestHandler[] {
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: [...scriptSrc],
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
