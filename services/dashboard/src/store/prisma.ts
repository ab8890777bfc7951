import { PrismaPg } from '@prisma/adapter-pg';
import { TRANSACTION_MAX_WAIT_MS } from '@hc/db';
import { PrismaClient } from './generated/prisma/client.ts';

export type DashboardPrisma = PrismaClient;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createDashboardPrisma(databaseUrl: string): DashboardPrisma {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl }),
    transactionOptions: { maxWait: TRANSACTION_MAX_WAIT_MS },
  });
}
