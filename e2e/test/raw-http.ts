/**
 * Raw requests (from @hc/test-kit) and the row counts that prove a refused request wrote nothing.
 */
import pg from 'pg';
import { rawRequest, type RawResponse } from '@hc/test-kit';
import type { Platform } from './platform-harness.ts';

export { rawRequest, type RawResponse };

/**
 * One connection per database, kept while it lives: a new connection for every count (four for each
 * fuzzed write, openapi-fuzz.e2e.test.ts) was most of what the fuzz cost. A connection that ends (the
 * harness drops its databases WITH (FORCE) at stop) is forgotten and the next count opens another.
 */
const counters = new Map<string, Promise<pg.Client>>();

function counter(databaseUrl: string): Promise<pg.Client> {
  let client = counters.get(databaseUrl);
  if (!client) {
    const opened = new pg.Client({ connectionString: databaseUrl });
    const forget = (): void => void counters.delete(databaseUrl);
    opened.on('error', forget);
    opened.on('end', forget);
    client = opened.connect().then(() => opened);
    client.catch(forget);
    counters.set(databaseUrl, client);
  }
  return client;
}

/**
 * Row counts of the tables a create or start writes (sessions, their outbox, idempotency records):
 * equal before and after a refused request proves it wrote nothing.
 */
export async function writeCounts(platform: Platform): Promise<Record<string, number>> {
  const count = async (databaseUrl: string, tables: string[]): Promise<[string, number][]> => {
    const client = await counter(databaseUrl);
    const counts: [string, number][] = [];
    for (const table of tables) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      counts.push([table, Number(rows[0]?.n)]);
    }
    return counts;
  };
  const [checkout, gateway] = await Promise.all([
    count(platform.stack.checkoutDatabaseUrl, ['checkout_sessions', 'outbox_messages']),
    count(platform.gatewayDatabaseUrl, ['idempotency_records']),
  ]);
  return Object.fromEntries([...checkout, ...gateway]);
}
