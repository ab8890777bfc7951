import { join } from 'node:path';
import express, { type Express } from 'express';
import nunjucks from 'nunjucks';
import type { Logger } from '@hc/logging';
import { accessLog, assignRequestId, exactRouting } from '@hc/web';
import { paths } from '../../paths.ts';
import { pageErrors, payRoutes, type HostedClient } from './pay-routes.ts';
import type { ReceiptPolicy } from '../../adapters/receipt-policy.ts';
import type { BrandReader, LogoReader } from '../../adapters/brand-reader.ts';
import { brandRoutes } from './brand-routes.ts';
import { createPageLimits } from './rate-limits.ts';
import { renderNotFound, renderProblem, TEMPLATES } from './render.ts';
import { securityHeaders } from './security.ts';
import { apiReferenceRoutes } from './api-reference-route.ts';
import { statementKeysRoutes } from './statement-keys-route.ts';
import { checkoutRoutes } from './checkout-routes.ts';
import { countryOptionsGlobal } from './country-options.ts';
import { trackRoutes } from './track-routes.ts';
import { buyerLanguage } from './language.ts';

const root = join(import.meta.dirname, '..', '..', '..');

export interface PagesAppOptions {
  readonly checkout: HostedClient;
  /** Whether a session's account mails receipts (adapters/receipt-policy.ts). */
  readonly receipts: ReceiptPolicy;
  /** The shop's brand for a page, and its logo's bytes (adapters/brand-reader.ts, docs/adr/0096). */
  readonly brands: BrandReader;
  readonly logos: LogoReader;
  readonly logger: Logger;
  readonly trustProxyHops: number;
  readonly viewsPerMinute: number;
  readonly actionsPerMinute: number;
  /** STATEMENT_PUBLIC_KEYSET, published at /.well-known/hc-statement-keys.json. */
  readonly statementPublicKeys?: string | undefined;
  /** Readiness: resolves when checkout answers. */
  readonly ready: () => Promise<void>;
}

/**
 * The hosted pages: server-rendered (nunjucks, every value auto-escaped), working without JavaScript;
 * one small script (with this response's CSP nonce) only follows the status live and redirects after
 * a payment. Order: request id and security headers first, so every answer carries them.
 */
export function createPagesApp(options: PagesAppOptions): Express {
  // One spelling per address (docs/security.md 47.2), set before the first route.
  const app = exactRouting(express());
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', options.trustProxyHops);
  const views = nunjucks.configure(join(root, 'views'), { autoescape: true, throwOnUndefined: false, noCache: false, express: app });
  views.addGlobal('assets', paths.assets);
  views.addGlobal('countryOptions', countryOptionsGlobal(views));
  app.set('view engine', 'njk');
  app.set(TEMPLATES, views);

  // Request id and security headers first, so every answer carries them; then one access-log line.
  app.use(assignRequestId, securityHeaders(), accessLog(options.logger));
  // The buyer's language (the picker's ?lang=, its cookie, Accept-Language) for every page below.
  app.use(buyerLanguage);

  app.get(paths.health, (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    await options.ready();
    res.json({ status: 'ready' });
  });
  app.use(
    paths.assets,
    express.static(join(root, 'public'), {
      index: false,
      maxAge: '1h',
      // The checkout widget's script is loaded by merchants' sites, on their own origins.
      setHeaders: (res, file) => {
        if (file.endsWith('widget.js')) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      },
    }),
  );

  const limits = createPageLimits(
    { viewsPerMinute: options.viewsPerMinute, actionsPerMinute: options.actionsPerMinute },
    options.logger,
    (_req, res, retryAfter) => renderProblem(res, 429, 'problem.tooMany.title', 'startProblem.rate_limited', retryAfter),
  );
  app.use(apiReferenceRoutes(), statementKeysRoutes(options.statementPublicKeys));
  app.use(brandRoutes(options.logos, limits));
  app.use(payRoutes(options.checkout, options.receipts, options.brands, limits, options.logger));
  app.use(trackRoutes(options.checkout, options.brands, limits));
  app.use(checkoutRoutes(options.checkout, options.brands, limits));
  app.use((_req, res) => renderNotFound(res));
  app.use(pageErrors(options.logger));
  return app;
}
