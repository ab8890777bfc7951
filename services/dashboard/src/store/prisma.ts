import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type DashboardPrisma = PrismaClient;

/**
 * How long an interactive transaction (a user with its audit line, a role change under the owners'
 * lock) may wait for a pooled connection. Prisma's default of 2 s failed such a write with "Unable to
 * start a transaction in the given time" on a loaded machine while the person would still have
 * waited; 5 s as checkout (services/checkout/src/store/prisma.ts).
 */
const TRANSACTION_MAX_WAIT_MS = 5_000;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createDashboardPrisma(databaseUrl: string): DashboardPrisma {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl }),
    transactionOptions: { maxWait: TRANSACTION_MAX_WAIT_MS },
  });
}
