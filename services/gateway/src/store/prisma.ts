import { createPool } from '@hc/db';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type GatewayPrisma = PrismaClient;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createGatewayPrisma(databaseUrl: string): GatewayPrisma {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

/** Connections per gateway process for Prisma and the idempotency statements (pg's default). */
const GATEWAY_POOL_SIZE = 10;

export interface GatewayDatabase {
  /** Accounts and keys (MerchantStore): administration and the key cache's loads. */
  readonly prisma: GatewayPrisma;
  /** The create path's prepared statements (IdempotencyStore); the same connections as Prisma's. */
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

/** One pg pool, used by Prisma (through its adapter) and directly by the hot path (docs/adr/0030). */
export function createGatewayDatabase(databaseUrl: string): GatewayDatabase {
  const pool = createPool(databaseUrl, { max: GATEWAY_POOL_SIZE });
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
