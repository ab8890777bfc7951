import pg from 'pg';

/** The same server address with another database name. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Runs `work` with a connection to the server's maintenance database (`postgres`). */
export async function withServer<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the database named in the URL if it does not exist yet (safe when racing). */
export async function ensureDatabase(databaseUrl: string, options: { template?: string } = {}): Promise<void> {
  const name = databaseName(databaseUrl);
  await withServer(databaseUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    const template = options.template ? ` TEMPLATE ${quoteIdent(options.template)}` : '';
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}${template}`);
    } catch (error) {
      // 42P04 duplicate_database: another process created it between the check and the create.
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
  });
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  await withServer(databaseUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  });
}

/**
 * Waits until the database answers `SELECT 1`, retrying every `intervalMs`, for at most `timeoutMs`
 * (then throws the last error). A service calls it before it starts, so one that (re)starts while
 * PostgreSQL is briefly away (a restart, a failover) waits instead of crashing into a restart loop.
 */
export async function waitForDatabase(
  databaseUrl: string,
  options: { timeoutMs: number; intervalMs?: number; onRetry?: (error: Error) => void },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      options.onRetry?.(error as Error);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
