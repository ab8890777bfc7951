import { checkGrpcHealth, createServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { startService } from '@hc/runtime/service';
import { listenHttp } from '@hc/web';
import { secretBoxFromEnv, type SecretBox } from '@hc/secrets';
import { dashboardUsersHandlers } from './api/grpc/dashboard-users-handlers.ts';
import { statementSigner, type DashboardConfig } from './config.ts';
import { NOTICE_KEPT_MS } from './domain/security-notice.ts';
import { createDashboardApp } from './api/http/app.ts';
import type { PlatformClients } from './adapters/platform-clients.ts';
import { createDashboardPrisma, type DashboardPrisma } from './store/prisma.ts';
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
 * The dashboard on the service skeleton (@hc/runtime/service, docs/adr/0095): database (TOTP seeds not
 * yet sealed with the current key are re-encrypted first) → dependencies (stores, the platform's gRPC
 * clients) → the purge job → the browser-facing HTTP listener → the internal gRPC listener
 * (DashboardUsersService, for the operator CLI). Used by main.ts and by tests.
 */
export async function startDashboard(
  config: DashboardConfig,
  logger: Logger,
  options: { now?: () => Date } = {},
): Promise<RunningDashboard> {
  const now = options.now ?? (() => new Date());
  // No key, no start: two-factor seeds are never stored in plaintext (docs/adr/0042).
  const box = secretBoxFromEnv(config.SECRETS_ENCRYPTION_KEYS);
  const service = await startService({
    name: 'dashboard',
    logger,
    database: { open: () => openDashboardDatabase(config, box, logger), close: (prisma) => prisma.$disconnect() },
    dependencies: (prisma, life) => ({
      store: dashboardDependencies(prisma, box, config, now),
      platform: life.own('platform clients', platformClients(config), (clients) => {
        for (const client of Object.values(clients)) client.close();
      }),
    }),
    jobs: ({ deps: { store } }) => ({ purge: startPurge(store, now, logger) }),
    listeners: async ({ database: prisma, deps: { store, platform } }) => ({
      http: await listenHttp(dashboardApp(config, logger, prisma, store, platform), {
        host: config.DASHBOARD_HOST,
        port: config.DASHBOARD_PORT,
        logger,
        refusals: 'page',
      }),
    }),
    grpc: {
      address: config.DASHBOARD_GRPC_ADDRESS,
      register: (server, { deps: { store } }) => server.addPublic(DashboardUsersService, dashboardUsersHandlers(store)),
      graceMs: 2_000,
    },
  });
  return { url: service.listeners.http.url, grpcAddress: service.address!, stop: () => service.stop() };
}

async function openDashboardDatabase(config: DashboardConfig, box: SecretBox, logger: Logger): Promise<DashboardPrisma> {
  const prisma = createDashboardPrisma(config.DASHBOARD_DATABASE_URL);
  await prisma.$connect();
  try {
    // Plaintext seeds from before encryption, and seeds under an older key after a key rotation.
    const { resealed } = await new UserStore(prisma, box).totp.reseal();
    if (resealed > 0) logger.info({ resealed, keyId: box.currentKeyId }, 'two-factor seeds re-encrypted with the current key');
  } catch (error) {
    await prisma.$disconnect();
    throw error;
  }
  return prisma;
}

function dashboardDependencies(prisma: DashboardPrisma, box: SecretBox, config: DashboardConfig, now: () => Date): DashboardDependencies {
  return {
    users: new UserStore(prisma, box),
    notices: new NoticeStore(prisma),
    team: new TeamStore(prisma),
    audit: new AuditStore(prisma),
    now,
    publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
  };
}

function platformClients(config: DashboardConfig): PlatformClients {
  const timeout = { timeoutMs: config.GRPC_TIMEOUT_MS };
  return {
    admin: createServiceClient(MerchantAdminService, config.ACCOUNTS_GRPC_ADDRESS, timeout),
    checkout: createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, timeout),
    checkoutAdmin: createServiceClient(CheckoutAdminService, config.CHECKOUT_GRPC_ADDRESS, timeout),
    customers: createServiceClient(CustomersService, config.CUSTOMERS_GRPC_ADDRESS, timeout),
    webhooks: createServiceClient(WebhooksService, config.WEBHOOKS_GRPC_ADDRESS, timeout),
    notifications: createServiceClient(NotificationsService, config.NOTIFICATIONS_GRPC_ADDRESS, timeout),
  };
}

function dashboardApp(
  config: DashboardConfig,
  logger: Logger,
  prisma: DashboardPrisma,
  deps: DashboardDependencies,
  platform: PlatformClients,
): ReturnType<typeof createDashboardApp> {
  const signer = statementSigner(config);
  if (!signer) logger.warn('STATEMENT_SIGNING_KEY is not set: settlement statements cannot be downloaded (docs/adr/0088)');
  return createDashboardApp({
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
}

/** Expired sessions, spent links, old sign-in attempts and old notices, deleted every 10 minutes. */
function startPurge(deps: DashboardDependencies, now: () => Date, logger: Logger): { stop(): void } {
  const purge = setInterval(() => {
    deps.users.purge(now()).catch((error: unknown) => logger.warn({ err: error }, 'purging expired dashboard sessions failed'));
    deps.notices
      .purge(new Date(now().getTime() - NOTICE_KEPT_MS))
      .catch((error: unknown) => logger.warn({ err: error }, 'purging old security notices failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  return { stop: () => clearInterval(purge) };
}
