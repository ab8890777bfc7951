import { connectedDatabase } from '@hc/db';
import { contextStream, eventTablePurges, startPurgeSchedule } from '@hc/events';
import { startService } from '@hc/runtime/service';
import type { Logger } from '@hc/logging';
import { AccountsOperatorService, BrandService, KeyDirectoryService, MerchantAdminService } from '@hc/proto/accounts/v1';
import { MerchantAdminService as LegacyMerchantAdminService } from '@hc/proto/gateway/v1';
import { brandHandlers } from './api/grpc/brand-handlers.ts';
import { keyDirectoryHandlers } from './api/grpc/key-directory-handlers.ts';
import { merchantAdminHandlers } from './api/grpc/merchant-admin-handlers.ts';
import { operatorHandlers } from './api/grpc/operator-handlers.ts';
import type { AccountsConfig } from './config.ts';
import type { MerchantAccount } from './domain/merchant-account.ts';
import { MerchantOperations } from './use-cases/merchant-operations.ts';
import { keyCachesCaughtUp } from './use-cases/key-directory.ts';
import { ChangeFeed } from './store/change-feed.ts';
import { KeyCacheLeases } from './store/key-cache-leases.ts';
import { BrandStore } from './store/brand-store.ts';
import { MerchantStore } from './store/merchant-store.ts';
import { createAccountsDatabase } from './store/prisma.ts';

export interface RunningAccountsService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  /** The account and key verbs in this process, for test harnesses (others call over gRPC). */
  readonly operations: MerchantOperations;
  /**
   * Stores an account exactly as given, its id included, with no rule applied: for test harnesses
   * that must make an account another part of the test already knows the id of.
   */
  putAccount(account: MerchantAccount): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Accounts on the service skeleton (@hc/runtime/service, docs/adr/0095): database → NATS (its stream,
 * the outbox relay for account events) → purges → gRPC with health: the merchant admin, operator and
 * key directory services (docs/adr/0085). Used by main.ts and by tests.
 */
export async function startAccountsService(
  config: AccountsConfig,
  logger: Logger,
  options: { now?: () => Date } = {},
): Promise<RunningAccountsService> {
  const now = options.now ?? (() => new Date());
  const service = await startService({
    name: 'accounts',
    logger,
    database: {
      open: () => connectedDatabase(createAccountsDatabase(config.ACCOUNTS_DATABASE_URL)),
      close: (database) => database.close(),
    },
    dependencies: ({ prisma, pool }) => {
      const changes = new ChangeFeed(pool);
      const leases = new KeyCacheLeases(pool);
      // A change is answered once the gateways' key caches have applied it (docs/adr/0108).
      const store = new MerchantStore(prisma, keyCachesCaughtUp({ changes, leases }));
      return { store, brands: new BrandStore(prisma), operations: new MerchantOperations(store, now), changes, leases };
    },
    events: {
      natsUrl: config.NATS_URL,
      streams: [contextStream(config.NATS_SUBJECT_PREFIX, 'accounts', config)],
      relay: { databaseUrl: config.ACCOUNTS_DATABASE_URL, subjectPrefix: config.NATS_SUBJECT_PREFIX },
    },
    jobs: () => ({
      purges: startPurgeSchedule(eventTablePurges(config.ACCOUNTS_DATABASE_URL, config), config.EVENTS_PURGE_INTERVAL_MS, logger),
    }),
    grpc: {
      address: config.ACCOUNTS_GRPC_ADDRESS,
      graceMs: 2000,
      register(server, { deps: { store, brands, operations, changes, leases } }) {
        const admin = merchantAdminHandlers({ store, brands, now });
        server.add(MerchantAdminService, admin);
        // The previous release's name of the same service (docs/adr/0086): its callers keep working through
        // a rolling upgrade. Removed with the gateway's old account tables.
        server.add(LegacyMerchantAdminService, admin);
        server.addPublic(AccountsOperatorService, operatorHandlers(operations));
        server.addPublic(BrandService, brandHandlers({ brands, now }));
        server.addPublic(KeyDirectoryService, keyDirectoryHandlers({ store, changes, leases }));
      },
    },
  });
  const { store, operations } = service.deps;
  return {
    address: service.address!,
    operations,
    putAccount: (account) => store.insertAccount(account),
    stop: () => service.stop(),
  };
}
