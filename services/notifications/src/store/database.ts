import { createSharedDatabase, inTransaction, type SharedDatabase } from '@hc/db';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type NotificationsPrisma = PrismaClient;

/** Prisma without native engines (docs/adr/0003); the schema-drift test reads its data model. */
export function createNotificationsPrisma(databaseUrl: string): NotificationsPrisma {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

/** Connections per notifications process: the consumers, the mail worker and the gRPC reads. */
export const NOTIFICATIONS_POOL_SIZE = 8;

export type NotificationsDatabase = SharedDatabase<NotificationsPrisma>;

/** Writes go through node-postgres statements on the shared pool (docs/adr/0032). */
export function createNotificationsDatabase(databaseUrl: string): NotificationsDatabase {
  return createSharedDatabase(
    databaseUrl,
    { max: NOTIFICATIONS_POOL_SIZE, connectionTimeoutMs: 10_000 },
    (pool) => new PrismaClient({ adapter: new PrismaPg(pool) }),
  );
}

export type Sql = pg.Pool | pg.PoolClient;

/**
 * What the use cases and the worker get of the database: single statements on the pool, and
 * transactions. Only store/ knows it is node-postgres.
 */
export class NotificationsSql {
  /** For single statements (each its own transaction). */
  readonly pool: Sql;
  private readonly connections: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
    this.connections = pool;
  }

  /** One transaction; every statement bounded, so a stuck lock fails the message instead of hanging it. */
  transaction<T>(work: (client: Sql) => Promise<T>): Promise<T> {
    return inTransaction(this.connections, { statementTimeoutMs: 10_000 }, work);
  }
}
