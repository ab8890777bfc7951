import { PrismaPg } from '@prisma/adapter-pg';
import { TRANSACTION_MAX_WAIT_MS } from '@hc/db';
import { PrismaClient } from './generated/prisma/client.ts';

export type WebhooksPrisma = PrismaClient;

/** Prisma without native engines: queries go through node-postgres (docs/adr/0003). */
export function createWebhooksPrisma(databaseUrl: string): WebhooksPrisma {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl }),
    transactionOptions: { maxWait: TRANSACTION_MAX_WAIT_MS },
  });
}
