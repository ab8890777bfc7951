/**
 * The local platform's state that belongs to its data, kept in the database cluster beside that data
 * (docs/adr/0083): the key that seals secrets at rest, the demo Test key's secret, whether the demo
 * account's mail settings were made. A second clone, a new worktree or `git clean` finds it where the
 * data is; dropping the cluster drops it with the data. Local mode only: ./scripts/start is its one
 * reader and writer, and no service or chart knows it (production keys come from Kubernetes Secrets).
 *
 * One small table in a database of its own (PLATFORM_STATE_DATABASE_URL, by default `hc_platform_local`
 * on the gateway database's server), never in a service's database: a service's dump or migrations
 * never see it. A row is (scope, name) → value; the scope says whose state it is (the cluster, or one
 * platform's database when several platforms share a cluster).
 */
import { createPool, ensureDatabase, withDatabase } from '@hc/db';

type Pool = ReturnType<typeof createPool>;

export const DEFAULT_STATE_DATABASE = 'hc_platform_local';

/** Where the state is kept: PLATFORM_STATE_DATABASE_URL, else `hc_platform_local` beside the gateway's database. */
export function stateDatabaseUrl(env: NodeJS.ProcessEnv, gatewayDatabaseUrl: string): string {
  return env['PLATFORM_STATE_DATABASE_URL']?.trim() || withDatabase(gatewayDatabaseUrl, DEFAULT_STATE_DATABASE);
}

/** A database as a scope: its server and name, without credentials (`127.0.0.1:5432/hc_gateway`). */
export function databaseScope(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || '5432'}${decodeURIComponent(url.pathname)}`;
}

/** The scope of what belongs to the whole cluster (its secrets' keyring). */
export const CLUSTER_SCOPE = 'cluster';

export interface LocalState {
  get(scope: string, name: string): Promise<string | undefined>;
  put(scope: string, name: string, value: string): Promise<void>;
  /**
   * Reads the value, lets `change` decide the new one (undefined: leave it) and writes it, with every
   * other start that asks for the same row waiting meanwhile: two clones started at once agree.
   */
  update(scope: string, name: string, change: (current: string | undefined) => string | undefined): Promise<string | undefined>;
  /** Forgets every row of these scopes; how many rows were removed. */
  forget(scopes: readonly string[]): Promise<number>;
  close(): Promise<void>;
  /** The database it is kept in, for messages. */
  readonly url: string;
}

const TABLE = `CREATE TABLE IF NOT EXISTS platform_state (
  scope text NOT NULL,
  name text NOT NULL,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, name)
)`;

async function createTable(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    // Two starts at once: CREATE TABLE IF NOT EXISTS can still collide in the catalog; a lock orders them.
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('hc_platform_local.platform_state'))`);
    await client.query(TABLE);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export async function openLocalState(url: string): Promise<LocalState> {
  await ensureDatabase(url);
  const pool = createPool(url, { max: 2 });
  try {
    await createTable(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    url,
    async get(scope, name) {
      const { rows } = await pool.query<{ value: string }>('SELECT value FROM platform_state WHERE scope = $1 AND name = $2', [
        scope,
        name,
      ]);
      return rows[0]?.value;
    },
    async put(scope, name, value) {
      await pool.query(
        `INSERT INTO platform_state (scope, name, value) VALUES ($1, $2, $3)
         ON CONFLICT (scope, name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [scope, name, value],
      );
    },
    async update(scope, name, change) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // The row may not exist yet, so a row lock cannot order two first starts: a lock on its name does.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${scope}/${name}`]);
        const { rows } = await client.query<{ value: string }>('SELECT value FROM platform_state WHERE scope = $1 AND name = $2', [
          scope,
          name,
        ]);
        const current = rows[0]?.value;
        const next = change(current);
        if (next !== undefined && next !== current) {
          await client.query(
            `INSERT INTO platform_state (scope, name, value) VALUES ($1, $2, $3)
             ON CONFLICT (scope, name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
            [scope, name, next],
          );
        }
        await client.query('COMMIT');
        return next ?? current;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async forget(scopes) {
      const result = await pool.query('DELETE FROM platform_state WHERE scope = ANY($1::text[])', [scopes]);
      return result.rowCount ?? 0;
    },
    close: () => pool.end(),
  };
}
