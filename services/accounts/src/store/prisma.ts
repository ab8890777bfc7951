import { PrismaPg } from '@prisma/adapter-pg';
import { createSharedDatabase, type SharedDatabase } from '@hc/db';
import { PrismaClient } from './generated/prisma/client.ts';

export type AccountsPrisma = PrismaClient;
export type AccountsDatabase = SharedDatabase<AccountsPrisma>;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createAccountsPrisma(databaseUrl: string): AccountsPrisma {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

/**
 * The service's Prisma client and the pg pool it runs on (10 connections, node-postgres's default, as
 * before), so the change feed's prepared statements share Prisma's connection budget (change-feed.ts).
 */
export function createAccountsDatabase(databaseUrl: string): AccountsDatabase {
  return createSharedDatabase(databaseUrl, { max: 10 }, (pool) => new PrismaClient({ adapter: new PrismaPg(pool) }));
}
