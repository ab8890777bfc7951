import { connectedDatabase } from '@hc/db';
import { callTimeoutMs, checkGrpcHealth, createServiceClient, type ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import type { ServiceLife } from '@hc/runtime';
import { startService, type Stoppable } from '@hc/runtime/service';
import { API_HEADER_CODES, listenHttp } from '@hc/web';
import { KeyCache } from './adapters/key-cache.ts';
import { keyDirectoryClient } from './adapters/key-directory-client.ts';
import { groupedCheckoutClient } from './adapters/checkout-client.ts';
import { groupedCustomersClient } from './adapters/customers-client.ts';
import type { GatewayConfig } from './config.ts';
import { createGatewayApp } from './api/http/app.ts';
import { createRateLimits, type RateLimits } from './store/rate-limit-store.ts';
import { IdempotencyStore } from './store/idempotency-store.ts';
import { createGatewayDatabase, type GatewayDatabase } from './store/prisma.ts';

export interface RunningGateway {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  stop(): Promise<void>;
}

/** How often expired idempotency records and ended rate-limit windows are deleted. */
const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Idle keep-alive connections live longer than a merchant client's or a load balancer's own idle
 * limit (commonly 4-60 s): a server that closes first races the client's next request on that socket,
 * which the client sees as ECONNRESET on a request it cannot safely retry.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** What the API's use cases hold: the stores and the clients of the services the gateway fronts. */
interface GatewayDependencies {
  readonly checkout: ServiceClient<typeof CheckoutService>;
  readonly checkoutAdmin: ServiceClient<typeof CheckoutAdminService>;
  readonly customers: ServiceClient<typeof CustomersService>;
  readonly webhooks: ServiceClient<typeof WebhooksService>;
  readonly keys: KeyCache;
  readonly idempotency: IdempotencyStore;
  readonly rateLimits: RateLimits;
}

/**
 * The gateway on the service skeleton (@hc/runtime/service, docs/adr/0095): database (Prisma and the
 * idempotency statements on one pool) → dependencies (gRPC clients, the key cache, the rate limits) →
 * the maintenance purge → the API's HTTP listener. Stops in reverse: the listener first (waiting
 * GET /v1/listen polls end at once), the database last. Used by main.ts and by tests (with a test clock).
 */
export async function startGateway(config: GatewayConfig, logger: Logger, options: { now?: () => Date } = {}): Promise<RunningGateway> {
  const now = options.now ?? (() => new Date());
  const service = await startService({
    name: 'gateway',
    logger,
    database: { open: () => connectedDatabase(createGatewayDatabase(config.GATEWAY_DATABASE_URL)), close: (database) => database.close() },
    dependencies: (database, life) => gatewayDependencies(config, database, life, logger),
    jobs: ({ deps }) => ({ maintenance: startMaintenance(deps, now, logger) }),
    listeners: async ({ database, deps }) => ({ http: await listenApi(config, database, deps, now, logger) }),
  });
  return { url: service.listeners.http.url, stop: () => service.stop() };
}

/** Each client is owned as it is made, so a start that fails at the next one still closes it. */
async function gatewayDependencies(
  config: GatewayConfig,
  database: GatewayDatabase,
  life: ServiceLife,
  logger: Logger,
): Promise<GatewayDependencies> {
  const timeout = { timeoutMs: config.GRPC_TIMEOUT_MS };
  const close = (client: { close(): void }): void => client.close();
  // Each grouped call within GRPC_TIMEOUT_MS of when it was made (customer lists: a waiting read's deadline).
  const grouping = {
    inFlight: config.CHECKOUT_GROUPED_CALLS,
    stallMs: config.CHECKOUT_GROUPED_CALL_STALL_MS,
    deadlineMs: config.GRPC_TIMEOUT_MS,
  };
  // Creates, reads by id and payment lists go out in grouped calls while others are in flight (docs/adr/0064).
  const checkout = groupedCheckoutClient(
    life.own('checkout client', createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, timeout), close),
    grouping,
    logger,
  );
  // The payment links of /v1/payment_links (ADR 0045): checkout's admin service, on the same listener.
  const checkoutAdmin = life.own(
    'checkout admin client',
    createServiceClient(CheckoutAdminService, config.CHECKOUT_GRPC_ADDRESS, timeout),
    close,
  );
  // Customer lists too, with the deadline of a read that waits for the caller's writes (docs/adr/0113).
  const customers = groupedCustomersClient(
    life.own('customers client', createServiceClient(CustomersService, config.CUSTOMERS_GRPC_ADDRESS, timeout), close),
    grouping,
    callTimeoutMs(config.CUSTOMERS_READ_WAIT_MS),
    logger,
  );
  const webhooks = life.own('webhooks client', createServiceClient(WebhooksService, config.WEBHOOKS_GRPC_ADDRESS, timeout), close);
  const rateLimits = life.own('rate limits', createRateLimits(config.GATEWAY_DATABASE_URL, rateLimitsOf(config), logger), (limits) =>
    limits.close(),
  );
  // Keys and accounts come from the accounts context, cached per process under a lease that accounts'
  // changes wait for (docs/adr/0108): a cached key is used with no call. The cache renews its lease on
  // its own timer from start to stop, and gives it back when stopped.
  const directory = life.own('key directory client', keyDirectoryClient(config.ACCOUNTS_GRPC_ADDRESS, config.GRPC_TIMEOUT_MS), close);
  const keys = life.own('key cache', new KeyCache(directory, logger), (cache) => cache.stop());
  await keys.start();
  return { checkout, checkoutAdmin, customers, webhooks, keys, idempotency: new IdempotencyStore(database.pool), rateLimits };
}

function rateLimitsOf(config: GatewayConfig): Parameters<typeof createRateLimits>[1] {
  return {
    requestsPerMinute: config.RATE_LIMIT_REQUESTS_PER_MINUTE,
    startsPerMinute: config.RATE_LIMIT_STARTS_PER_MINUTE,
    listensPerMinute: config.RATE_LIMIT_LISTEN_PER_MINUTE,
  };
}

/** Expired idempotency records and ended rate-limit windows, deleted every 10 minutes. */
function startMaintenance(deps: GatewayDependencies, now: () => Date, logger: Logger): Stoppable {
  const maintenance = setInterval(() => {
    Promise.all([deps.idempotency.purgeExpired(now()), deps.rateLimits.purgeExpired(now())]).catch((error: unknown) =>
      logger.warn({ err: error }, 'purging expired idempotency records or rate-limit windows failed'),
    );
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();
  return { stop: () => clearInterval(maintenance) };
}

/** The API's HTTP listener; its stop first ends waiting GET /v1/listen polls, so the close does not wait for them. */
async function listenApi(
  config: GatewayConfig,
  database: GatewayDatabase,
  deps: GatewayDependencies,
  now: () => Date,
  logger: Logger,
): Promise<{ readonly url: string; stop(): Promise<void> }> {
  const closing = new AbortController();
  const app = createGatewayApp({
    // Authentication reads keys through the cache (docs/adr/0027).
    merchants: deps.keys,
    checkout: deps.checkout,
    checkoutAdmin: deps.checkoutAdmin,
    customers: deps.customers,
    webhooks: deps.webhooks,
    closing: closing.signal,
    idempotency: deps.idempotency,
    idempotencySettings: { now, lockMs: config.IDEMPOTENCY_LOCK_MS, waitMs: config.IDEMPOTENCY_WAIT_MS },
    rateLimits: deps.rateLimits,
    customersReadWaitMs: config.CUSTOMERS_READ_WAIT_MS,
    logger,
    ready: async () => {
      await database.prisma.$queryRaw`SELECT 1`;
      await Promise.all(
        [config.CHECKOUT_GRPC_ADDRESS, config.CUSTOMERS_GRPC_ADDRESS, config.ACCOUNTS_GRPC_ADDRESS].map((address) =>
          checkGrpcHealth(address),
        ),
      );
    },
  });
  // Slow-client protection (the whole request within 30 s, its headers within 10 s) is listenHttp's default.
  const http = await listenHttp(app, {
    host: config.GATEWAY_HOST,
    port: config.GATEWAY_PORT,
    logger,
    refusals: 'api',
    headerCodes: API_HEADER_CODES,
    keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  });
  return {
    url: http.url,
    stop() {
      closing.abort();
      return http.stop();
    },
  };
}
