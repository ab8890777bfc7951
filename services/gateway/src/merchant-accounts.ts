import type { Logger } from '@hc/logging';
import { startAdminListener, type AdminListener } from './admin-listener.ts';
import type { MerchantAccount } from './domain/merchant-account.ts';
import { MerchantOperations } from './merchant-operations.ts';
import { MerchantStore } from './store/merchant-store.ts';
import { createGatewayPrisma } from './store/prisma.ts';

/**
 * The gateway's accounts and keys for callers outside its HTTP edge (the operator CLI, the platform
 * runner, test harnesses), on one connection to the gateway's database. The store, the key cache and
 * Prisma stay inside the gateway: this is all the gateway exports of them.
 */
export interface MerchantAccounts {
  /** The account and key verbs (create, suspend, keys, …), each through its use case. */
  readonly operations: MerchantOperations;
  /**
   * Stores an account exactly as given, its id included, with no rule applied: for test harnesses
   * that must make an account another part of the test already knows the id of.
   */
  putAccount(account: MerchantAccount): Promise<void>;
  /** The internal admin gRPC listener (docs/adr/0028) on this database, for harnesses that run no gateway. */
  listen(address: string, logger: Logger): Promise<AdminListener>;
  /** Closes the connection (stop a listener first). */
  close(): Promise<void>;
}

export function openMerchantAccounts(databaseUrl: string, now: () => Date = () => new Date()): MerchantAccounts {
  const prisma = createGatewayPrisma(databaseUrl);
  const store = new MerchantStore(prisma);
  return {
    operations: new MerchantOperations(store, now),
    putAccount: (account) => store.insertAccount(account),
    listen: (address, logger) => startAdminListener(address, store, now, logger),
    close: () => prisma.$disconnect(),
  };
}
