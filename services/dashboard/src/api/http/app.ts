import { join } from 'node:path';
import express, { type Express } from 'express';
import nunjucks from 'nunjucks';
import type { Logger } from '@hc/logging';
import { accessLog, assignRequestId, exactRouting, strictFormBody } from '@hc/web';
import type { StatementSigner } from '@hc/exports';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { auditRoutes } from './audit-routes.ts';
import { auditTrail } from './audit-trail.ts';
import { brandRoutes } from './brand-routes.ts';
import { brandUpload } from './brand-upload.ts';
import { authRoutes } from './auth-routes.ts';
import { pageAbilities, refuseUnknownChange, setAuditContext } from './authorize.ts';
import { exportRoutes } from './export-routes.ts';
import { checkoutsRoutes } from './checkouts-routes.ts';
import { customersRoutes } from './customers-routes.ts';
import { developersRoutes } from './developers-routes.ts';
import { linksRoutes } from './links-routes.ts';
import { paymentsRoutes } from './payments-routes.ts';
import { modeFromPath } from './mode.ts';
import { noticesRoutes } from './notices-routes.ts';
import { overviewRoutes } from './overview-routes.ts';
import { dashboardPaths } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { pageErrors, renderNotFound } from './render.ts';
import { refuseControlCharacters } from './plain-text.ts';
import { securityHeaders } from './security.ts';
import { unguardedRouter } from './routers.ts';
import { csrfProtected, loadSession, requireUser } from './session.ts';
import { settingsRoutes, twoFactorRoutes } from './settings-routes.ts';
import { emailRoutes } from './email-routes.ts';
import { teamRoutes } from './team-routes.ts';

const root = join(import.meta.dirname, '..', '..', '..');

export interface DashboardAppOptions {
  readonly deps: DashboardDependencies;
  readonly platform: PlatformClients;
  readonly logger: Logger;
  readonly secureCookies: boolean;
  readonly trustProxyHops: number;
  /** Signs settlement statements (docs/adr/0088); without it, statement downloads answer 503. */
  readonly statementSigner?: StatementSigner | undefined;
  /** Readiness: resolves when the database and the services answer. */
  readonly ready: () => Promise<void>;
}

/**
 * The merchant dashboard (docs/adr/0029): server-rendered pages (nunjucks, every value escaped) that
 * work without script; every change is a form post carrying the session's CSRF token, answered with
 * a redirect. Order: request id and security headers first, so every answer carries them; then the
 * session, CSRF, and the pages.
 */
export function createDashboardApp(options: DashboardAppOptions): Express {
  // One spelling per address (docs/security.md 47.2): set before the first route, as Express makes its
  // router with these settings on first use; every other router comes from routers.ts.
  const app = exactRouting(express());
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', options.trustProxyHops);
  nunjucks.configure(join(root, 'views'), { autoescape: true, throwOnUndefined: false, express: app });
  app.set('view engine', 'njk');

  // Request id and security headers first, so every answer carries them; then one access-log line.
  app.use(assignRequestId, securityHeaders(), accessLog(options.logger));

  app.get(dashboardPaths.health, (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get(dashboardPaths.ready, async (_req, res) => {
    await options.ready();
    res.json({ status: 'ready' });
  });
  app.use(dashboardPaths.assets, express.static(join(root, 'public'), { index: false, maxAge: '1h' }));

  // UTF-8 only (@hc/web): a form that is not is a 400 page, never read with U+FFFD or raw escapes.
  app.use(strictFormBody({ limit: '32kb', parameterLimit: 100 }));
  // The one multipart form, Settings → Brand's logo (512 kB at most), read here so CSRF sees its token.
  app.use(brandUpload);
  // No control character in an address, a query or a form: a 400 page before anything reads them.
  app.use(refuseControlCharacters);
  app.use(loadSession(options.deps));
  app.use(csrfProtected);
  app.use(authRoutes(options.deps, options.secureCookies));
  app.use(requireUser);
  // Roles on the server for every action (docs/adr/0055), checked by each route's own guard
  // (routers.ts), and each action into the audit log (0056): a change allowed to run is written
  // before it runs (0060) and its line always completed.
  setAuditContext(app, { deps: options.deps, logger: options.logger });
  app.use(auditTrail(options.deps, options.logger), pageAbilities);
  app.use(noticesRoutes(options.deps));
  app.use(twoFactorRoutes(options.deps));

  // Everything of one mode: /dashboard/{test|live}/…
  const modePages = unguardedRouter();
  modePages.use(modeFromPath(options.platform));
  modePages.use(overviewRoutes(options.platform));
  modePages.use(checkoutsRoutes(options.platform, options.deps), linksRoutes(options.platform, options.deps));
  modePages.use(customersRoutes(options.platform, options.deps));
  modePages.use(developersRoutes(options.platform, options.deps));
  modePages.use(paymentsRoutes(options.platform, options.deps));
  modePages.use(settingsRoutes(options.platform, options.deps));
  modePages.use(emailRoutes(options.platform, options.deps));
  modePages.use(brandRoutes(options.platform, options.deps));
  modePages.use(
    teamRoutes(options.platform, options.deps),
    auditRoutes(options.deps),
    exportRoutes(options.platform, options.logger, options.statementSigner),
  );
  app.use('/dashboard/:mode', modePages);

  app.use(refuseUnknownChange, (_req, res) => renderNotFound(res));
  app.use(pageErrors(options.logger));
  return app;
}
