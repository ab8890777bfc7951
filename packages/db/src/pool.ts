import pg from 'pg';

/**
 * A node-postgres pool for a service's own database, shared by Prisma (through its pg adapter) and
 * the prepared statements of its hot paths (docs/adr/0030), so both draw from one connection budget.
 */
export function createPool(databaseUrl: string, options: { max: number; connectionTimeoutMs?: number }): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max,
    ...(options.connectionTimeoutMs === undefined ? {} : { connectionTimeoutMillis: options.connectionTimeoutMs }),
  });
  // An idle connection the server dropped (restart, failover): the pool discards it and the next query
  // opens a new one; without a listener the error would end the process.
  pool.on('error', () => undefined);
  return pool;
}

/** A service's Prisma client and the pg pool it runs on, closed together. */
export interface SharedDatabase<P> {
  readonly prisma: P;
  /** For the prepared statements of the hot paths; the same connections as Prisma's. */
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * One pool (createPool) and the service's Prisma client on it (`withPool` builds the client with
 * `new PrismaPg(pool)`), so Prisma and the prepared statements share one connection budget.
 */
export function createSharedDatabase<P extends { $disconnect(): Promise<void> }>(
  databaseUrl: string,
  options: { max: number; connectionTimeoutMs?: number },
  withPool: (pool: pg.Pool) => P,
): SharedDatabase<P> {
  const pool = createPool(databaseUrl, options);
  const prisma = withPool(pool);
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * The shared database connected (Prisma's `$connect`) before the service goes on; if that fails the pool
 * is closed too, so a failed start leaves no connection behind (the service skeleton's rule, ADR 0095).
 */
export async function connectedDatabase<P extends { $connect(): Promise<void>; $disconnect(): Promise<void> }>(
  database: SharedDatabase<P>,
): Promise<SharedDatabase<P>> {
  try {
    await database.prisma.$connect();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export interface TransactionOptions {
  /** Longest any one statement of the transaction may run (SET LOCAL statement_timeout). */
  readonly statementTimeoutMs: number;
}

/**
 * Runs `work` on one pooled connection between BEGIN and COMMIT. Any error rolls back and is
 * rethrown; a connection whose ROLLBACK fails too (dropped mid-transaction) is destroyed, never reused.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  options: TransactionOptions,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out connection the server ends emits 'error' outside any query; unheard, it would end
  // the process. The failing query (or the ROLLBACK) reports it to the caller instead.
  const onError = (error: Error): void => {
    broken = error;
  };
  client.on('error', onError);
  try {
    // One round trip: the simple-query protocol runs both statements.
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/**
 * How long a Prisma interactive transaction may wait for a pooled connection (Prisma's
 * `transactionOptions.maxWait`). Prisma's default of 2 s failed writes with "Unable to start a
 * transaction in the given time" (P2028) on a loaded machine while the caller would still have waited
 * (a gRPC caller's deadline is 5 s, GRPC_TIMEOUT_MS; a person in the dashboard; a delivery worker that
 * would only back off). Every service's Prisma client that takes interactive transactions uses it.
 */
export const TRANSACTION_MAX_WAIT_MS = 5_000;
