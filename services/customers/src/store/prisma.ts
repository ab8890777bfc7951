import { createPool } from '@hc/db';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
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

export interface CustomersDatabase {
  /** The API's reads and the private note. */
  readonly prisma: CustomersPrisma;
  /** The consumer's and the erasure's transactions (customers-transaction.ts); the same connections as Prisma's. */
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

/** One pg pool, used by Prisma (through its adapter) and directly by the write transactions (docs/adr/0030). */
export function createCustomersDatabase(databaseUrl: string): CustomersDatabase {
  const pool = createPool(databaseUrl, { max: CUSTOMERS_POOL_SIZE, connectionTimeoutMs: CONNECTION_WAIT_MS });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
