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
