import type { RequestListener } from 'node:http';
import express from 'express';
import type { ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { accessLog, exactRouter, exactRouting } from '@hc/web';
import type { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import type { CustomersService } from '@hc/proto/customers/v1';
import type { WebhooksService } from '@hc/proto/webhooks/v1';
import type { AccountLimiter } from '../../domain/account-limiter.ts';
import type { KeyDirectory } from '../../use-cases/authenticate.ts';
import type { IdempotencyDependencies, IdempotencySettings } from '../../use-cases/create-idempotently.ts';
import { rateLimited } from './middleware/rate-limit.ts';
import { requireApiKey } from './middleware/authenticate.ts';
import { errorResponder, unknownRoute } from './middleware/errors.ts';
import { openApiText } from './openapi/document.ts';
import { responseHeaders } from './middleware/response-headers.ts';
import { checkoutSessionRoutes } from './routes/checkout-sessions.ts';
import { customerRoutes } from './routes/customers.ts';
import { eventRoutes } from './routes/events.ts';
import { DEFAULT_LISTEN_SETTINGS, listenRoutes } from './routes/listen.ts';
import { paymentLinkRoutes } from './routes/payment-links.ts';
import { readByIdRoutes } from './routes/reads-by-id.ts';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.ts';
import { paymentRoutes } from './routes/payments.ts';
import { parseQuery } from './validation/query.ts';
import { answerJson, answerJsonText } from './answer.ts';

export interface GatewayApp {
  readonly merchants: KeyDirectory;
  readonly checkout: ServiceClient<typeof CheckoutService>;
  /** Payment links for /v1/payment_links (ADR 0045). */
  readonly checkoutAdmin: ServiceClient<typeof CheckoutAdminService>;
  readonly customers: ServiceClient<typeof CustomersService>;
  readonly webhooks: ServiceClient<typeof WebhooksService>;
  /** Aborted when the gateway stops: waiting GET /v1/listen polls answer at once. */
  readonly closing?: AbortSignal;
  /** Idempotency-Key records of every /v1 create (checkout sessions, payment links, webhook endpoints). */
  readonly idempotency: IdempotencyDependencies['idempotency'];
  readonly idempotencySettings: IdempotencySettings;
  /** The per-account budgets (store/rate-limit-store.ts counts them). */
  readonly rateLimits: { readonly requests: AccountLimiter; readonly starts: AccountLimiter; readonly listens: AccountLimiter };
  /** How long a customers read may wait for the caller's answered writes (docs/adr/0011). */
  readonly customersReadWaitMs: number;
  readonly logger: Logger;
  /** Readiness: resolves when the gateway's database and the services answer. */
  readonly ready: () => Promise<void>;
}

/**
 * The HTTP surface, the only path every request takes (docs/adr/0103). Order matters: request id and
 * headers first (so every answer, errors included, carries them), then authentication, then the
 * account's rate limit, then the route, which checks its headers and parses its own body. The two
 * polled reads by id (routes/reads-by-id.ts) are mounted before authentication and the rate limit
 * because they take both themselves, concurrently with checkout's read, verdicts in the same order.
 */
export function createGatewayApp(deps: GatewayApp): RequestListener {
  // One spelling per address (docs/security.md 47.2), set before the first route.
  const app = exactRouting(express());
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', parseQuery);
  app.use(responseHeaders);
  // Only method, path, status and duration: never headers (keys) nor bodies (personal data).
  app.use(accessLog(deps.logger));

  app.get('/healthz', (_req, res) => {
    answerJson(res, 200, { status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    await deps.ready();
    answerJson(res, 200, { status: 'ready' });
  });

  // The API's own description needs no key (generators fetch it); built once, answered as committed.
  const openApi = openApiText();
  app.get('/v1/openapi.json', (_req, res) => {
    answerJsonText(res, 200, openApi);
  });

  const v1 = exactRouter();
  // A long poll of `hosted-checkout listen` spends its own small budget, not the account's (issue 44).
  const requestLimit = rateLimited(deps.rateLimits.requests, deps.logger);
  const listenLimit = rateLimited(deps.rateLimits.listens, deps.logger);
  readByIdRoutes(v1, { merchants: deps.merchants, checkout: deps.checkout, requestLimit: deps.rateLimits.requests, logger: deps.logger });
  v1.use(requireApiKey(deps.merchants), (req, res, next) => (req.path === '/listen' ? listenLimit : requestLimit)(req, res, next));
  checkoutSessionRoutes(v1, {
    checkout: deps.checkout,
    idempotency: deps.idempotency,
    idempotencySettings: deps.idempotencySettings,
    startLimit: rateLimited(deps.rateLimits.starts, deps.logger),
  });
  paymentRoutes(v1, deps.checkout);
  customerRoutes(v1, { customers: deps.customers, checkout: deps.checkout, readWaitMs: deps.customersReadWaitMs });
  eventRoutes(v1, deps.webhooks);
  listenRoutes(v1, deps.webhooks, { ...DEFAULT_LISTEN_SETTINGS, closing: deps.closing });
  const idempotent: IdempotencyDependencies = { idempotency: deps.idempotency, settings: deps.idempotencySettings };
  webhookEndpointRoutes(v1, deps.webhooks, idempotent);
  paymentLinkRoutes(v1, deps.checkoutAdmin, idempotent);
  app.use('/v1', v1);

  app.use(unknownRoute);
  app.use(errorResponder(deps.logger));
  return app;
}
