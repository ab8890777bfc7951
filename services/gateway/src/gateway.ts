import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { checkGrpcHealth, createServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { answerParserRefusals, API_HEADER_CODES } from '@hc/web';
import { KeyCache } from './adapters/key-cache.ts';
import { keyDirectoryClient } from './adapters/key-directory-client.ts';
import { groupedCheckoutClient } from './adapters/checkout-client.ts';
import type { GatewayConfig } from './config.ts';
import { createGatewayApp } from './api/http/app.ts';
import { createRateLimits } from './store/rate-limit-store.ts';
import { IdempotencyStore } from './store/idempotency-store.ts';
import { createGatewayDatabase } from './store/prisma.ts';

export interface RunningGateway {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  stop(): Promise<void>;
}

/** How often expired idempotency records and ended rate-limit windows are deleted. */
const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

/** Wires config → database → gRPC clients → HTTP server. Used by main.ts and by tests (with a test clock). */
export async function startGateway(config: GatewayConfig, logger: Logger, options: { now?: () => Date } = {}): Promise<RunningGateway> {
  const now = options.now ?? (() => new Date());
  const database = createGatewayDatabase(config.GATEWAY_DATABASE_URL);
  const { prisma } = database;
  await prisma.$connect();
  // Creates and reads by id go out in grouped calls while others are in flight (docs/adr/0064).
  const checkout = groupedCheckoutClient(
    createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS }),
    { inFlight: config.CHECKOUT_GROUPED_CALLS, stallMs: config.CHECKOUT_GROUPED_CALL_STALL_MS },
  );
  // The payment links of /v1/payment_links (ADR 0045): checkout's admin service, on the same listener.
  const checkoutAdmin = createServiceClient(CheckoutAdminService, config.CHECKOUT_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS });
  const customers = createServiceClient(CustomersService, config.CUSTOMERS_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS });
  const webhooks = createServiceClient(WebhooksService, config.WEBHOOKS_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS });
  // Keys and accounts come from the accounts context, cached per process and synced with its change
  // feed before each use (docs/adr/0085).
  const directory = keyDirectoryClient(config.ACCOUNTS_GRPC_ADDRESS, config.GRPC_TIMEOUT_MS);
  const keys = new KeyCache(directory, logger);
  await keys.start();
  const idempotency = new IdempotencyStore(database.pool);
  const rateLimits = createRateLimits(
    config.GATEWAY_DATABASE_URL,
    {
      requestsPerMinute: config.RATE_LIMIT_REQUESTS_PER_MINUTE,
      startsPerMinute: config.RATE_LIMIT_STARTS_PER_MINUTE,
      listensPerMinute: config.RATE_LIMIT_LISTEN_PER_MINUTE,
    },
    logger,
  );
  const maintenance = setInterval(() => {
    Promise.all([idempotency.purgeExpired(now()), rateLimits.purgeExpired(now())]).catch((error: unknown) =>
      logger.warn({ err: error }, 'purging expired idempotency records or rate-limit windows failed'),
    );
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();
  // Ends waiting GET /v1/listen polls at once on stop, so closing the server does not wait for them.
  const closing = new AbortController();
  const app = createGatewayApp({
    // Authentication reads keys through the cache (docs/adr/0027).
    merchants: keys,
    checkout,
    checkoutAdmin,
    customers,
    webhooks,
    closing: closing.signal,
    idempotency,
    idempotencySettings: { now, lockMs: config.IDEMPOTENCY_LOCK_MS, waitMs: config.IDEMPOTENCY_WAIT_MS },
    rateLimits,
    customersReadWaitMs: config.CUSTOMERS_READ_WAIT_MS,
    logger,
    ready: async () => {
      await prisma.$queryRaw`SELECT 1`;
      await Promise.all(
        [config.CHECKOUT_GRPC_ADDRESS, config.CUSTOMERS_GRPC_ADDRESS, config.ACCOUNTS_GRPC_ADDRESS].map((address) =>
          checkGrpcHealth(address),
        ),
      );
    },
  });
  const server: Server = createServer(app);
  answerParserRefusals(server, logger, 'api', { headerCodes: API_HEADER_CODES });
  // Slow-client protection: a request must arrive whole within 30 s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  // Idle keep-alive connections live longer than a merchant client's or a load balancer's own idle
  // limit (commonly 4-60 s): a server that closes first races the client's next request on that socket,
  // which the client sees as ECONNRESET on a request it cannot safely retry.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.GATEWAY_PORT, config.GATEWAY_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.GATEWAY_HOST}:${port}`,
    async stop() {
      closing.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearInterval(maintenance);
      checkout.close();
      checkoutAdmin.close();
      customers.close();
      webhooks.close();
      await rateLimits.close();
      keys.stop();
      directory.close();
      await database.close();
    },
  };
}
