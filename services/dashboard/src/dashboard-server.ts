import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { checkGrpcHealth, createGrpcServer, createServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { answerParserRefusals } from '@hc/web';
import { secretBoxFromEnv } from '@hc/secrets';
import { dashboardUsersHandlers } from './api/grpc/dashboard-users-handlers.ts';
import { statementSigner, type DashboardConfig } from './config.ts';
import { NOTICE_KEPT_MS } from './domain/security-notice.ts';
import { createDashboardApp } from './api/http/app.ts';
import type { PlatformClients } from './adapters/platform-clients.ts';
import { createDashboardPrisma } from './store/prisma.ts';
import { AuditStore } from './store/audit-store.ts';
import { NoticeStore } from './store/notice-store.ts';
import { TeamStore } from './store/team-store.ts';
import { UserStore } from './store/user-store.ts';
import type { DashboardDependencies } from './use-cases/dependencies.ts';

export interface RunningDashboard {
  /** Base URL of the browser-facing server, e.g. http://127.0.0.1:8083 (pages under /dashboard). */
  readonly url: string;
  /** host:port of the internal gRPC listener (DashboardUsersService, for the operator CLI). */
  readonly grpcAddress: string;
  stop(): Promise<void>;
}

/** How often expired sessions, spent links, old sign-in attempts and old notices are deleted. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Wires config → encryption keys → database (TOTP seeds not yet sealed with the current key are
 * re-encrypted first) → gRPC clients and listener → HTTP server. Used by main.ts and by tests.
 */
export async function startDashboard(
  config: DashboardConfig,
  logger: Logger,
  options: { now?: () => Date } = {},
): Promise<RunningDashboard> {
  const now = options.now ?? (() => new Date());
  // No key, no start: two-factor seeds are never stored in plaintext (docs/adr/0042).
  const box = secretBoxFromEnv(config.SECRETS_ENCRYPTION_KEYS);
  const prisma = createDashboardPrisma(config.DASHBOARD_DATABASE_URL);
  await prisma.$connect();
  const users = new UserStore(prisma, box);
  try {
    // Plaintext seeds from before encryption, and seeds under an older key after a key rotation.
    const { resealed } = await users.totp.reseal();
    if (resealed > 0) logger.info({ resealed, keyId: box.currentKeyId }, 'two-factor seeds re-encrypted with the current key');
  } catch (error) {
    await prisma.$disconnect();
    throw error;
  }
  const notices = new NoticeStore(prisma);
  const deps: DashboardDependencies = {
    users,
    notices,
    team: new TeamStore(prisma),
    audit: new AuditStore(prisma),
    now,
    publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
  };
  const timeout = { timeoutMs: config.GRPC_TIMEOUT_MS };
  const platform: PlatformClients = {
    admin: createServiceClient(MerchantAdminService, config.ACCOUNTS_GRPC_ADDRESS, timeout),
    checkout: createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, timeout),
    checkoutAdmin: createServiceClient(CheckoutAdminService, config.CHECKOUT_GRPC_ADDRESS, timeout),
    customers: createServiceClient(CustomersService, config.CUSTOMERS_GRPC_ADDRESS, timeout),
    webhooks: createServiceClient(WebhooksService, config.WEBHOOKS_GRPC_ADDRESS, timeout),
    notifications: createServiceClient(NotificationsService, config.NOTIFICATIONS_GRPC_ADDRESS, timeout),
  };

  const signer = statementSigner(config);
  if (!signer) logger.warn('STATEMENT_SIGNING_KEY is not set: settlement statements cannot be downloaded (docs/adr/0088)');
  const grpc = createGrpcServer(logger);
  grpc.addPublic(DashboardUsersService, dashboardUsersHandlers(deps));
  const grpcAddress = await grpc.listenAt(config.DASHBOARD_GRPC_ADDRESS);

  const app = createDashboardApp({
    deps,
    platform,
    logger,
    secureCookies: config.DASHBOARD_SECURE_COOKIES,
    trustProxyHops: config.DASHBOARD_TRUST_PROXY_HOPS,
    statementSigner: signer,
    ready: async () => {
      await prisma.$queryRaw`SELECT 1`;
      await Promise.all(
        [config.ACCOUNTS_GRPC_ADDRESS, config.CHECKOUT_GRPC_ADDRESS, config.CUSTOMERS_GRPC_ADDRESS, config.WEBHOOKS_GRPC_ADDRESS].map(
          (address) => checkGrpcHealth(address),
        ),
      );
    },
  });
  const server = createServer(app);
  answerParserRefusals(server, logger, 'page');
  // Slow-client protection: a request must arrive whole within 30 s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.DASHBOARD_PORT, config.DASHBOARD_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const purge = setInterval(() => {
    users.purge(now()).catch((error: unknown) => logger.warn({ err: error }, 'purging expired dashboard sessions failed'));
    notices
      .purge(new Date(now().getTime() - NOTICE_KEPT_MS))
      .catch((error: unknown) => logger.warn({ err: error }, 'purging old security notices failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();

  return {
    url: `http://${config.DASHBOARD_HOST}:${port}`,
    grpcAddress,
    async stop() {
      clearInterval(purge);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await grpc.stop(2000);
      for (const client of Object.values(platform)) client.close();
      await prisma.$disconnect();
    },
  };
}
