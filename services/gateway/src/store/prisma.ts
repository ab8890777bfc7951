import { createSharedDatabase, type SharedDatabase } from '@hc/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type GatewayPrisma = PrismaClient;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createGatewayPrisma(databaseUrl: string): GatewayPrisma {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

/** Connections per gateway process for Prisma and the idempotency statements (pg's default). */
const GATEWAY_POOL_SIZE = 10;

/** Prisma for accounts and keys and the idempotency statements (IdempotencyStore) on one pg pool (docs/adr/0032). */
export type GatewayDatabase = SharedDatabase<GatewayPrisma>;

export function createGatewayDatabase(databaseUrl: string): GatewayDatabase {
  return createSharedDatabase(databaseUrl, { max: GATEWAY_POOL_SIZE }, (pool) => new PrismaClient({ adapter: new PrismaPg(pool) }));
}
