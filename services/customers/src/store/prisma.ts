import { createSharedDatabase, type SharedDatabase } from '@hc/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type CustomersPrisma = PrismaClient;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createCustomersPrisma(databaseUrl: string): CustomersPrisma {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

/** Connections per customers process, shared by Prisma's reads and the consumer's transactions. */
export const CUSTOMERS_POOL_SIZE = 10;
// How long a transaction may wait for a pooled connection (Prisma's maxWait was 10 s here).
const CONNECTION_WAIT_MS = 10_000;

/** Prisma for the API's reads and the write transactions' statements (customers-transaction.ts) on one pg pool (docs/adr/0032). */
export type CustomersDatabase = SharedDatabase<CustomersPrisma>;

export function createCustomersDatabase(databaseUrl: string): CustomersDatabase {
  return createSharedDatabase(
    databaseUrl,
    { max: CUSTOMERS_POOL_SIZE, connectionTimeoutMs: CONNECTION_WAIT_MS },
    (pool) => new PrismaClient({ adapter: new PrismaPg(pool) }),
  );
}
