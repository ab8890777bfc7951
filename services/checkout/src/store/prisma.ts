import { PrismaPg } from '@prisma/adapter-pg';
import { createSharedDatabase, TRANSACTION_MAX_WAIT_MS, type SharedDatabase } from '@hc/db';
import { PrismaClient } from './generated/prisma/client.ts';

export type CheckoutPrisma = PrismaClient;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createCheckoutPrisma(databaseUrl: string): CheckoutPrisma {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

/** Connections per checkout process, shared by Prisma and the prepared statements (pg's default). */
export const CHECKOUT_POOL_SIZE = 10;

/** Prisma and the prepared statements of the hot paths (payment-statements.ts) on one pg pool (docs/adr/0030). */
export type CheckoutDatabase = SharedDatabase<CheckoutPrisma>;

export function createCheckoutDatabase(databaseUrl: string): CheckoutDatabase {
  return createSharedDatabase(
    databaseUrl,
    { max: CHECKOUT_POOL_SIZE },
    (pool) => new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: TRANSACTION_MAX_WAIT_MS } }),
  );
}
