/**
 * Raw requests (from @hc/test-kit) and the row counts that prove a refused request wrote nothing.
 */
import pg from 'pg';
import { rawRequest, type RawResponse } from '@hc/test-kit';
import type { Platform } from './platform-harness.ts';

export { rawRequest, type RawResponse };

/**
 * Row counts of the tables a create or start writes (sessions, their outbox, idempotency records):
 * equal before and after a refused request proves it wrote nothing.
 */
export async function writeCounts(platform: Platform): Promise<Record<string, number>> {
  const count = async (databaseUrl: string, tables: string[]): Promise<[string, number][]> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const counts: [string, number][] = [];
      for (const table of tables) {
        const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
        counts.push([table, Number(rows[0]?.n)]);
      }
      return counts;
    } finally {
      await client.end();
    }
  };
  const [checkout, gateway] = await Promise.all([
    count(platform.stack.checkoutDatabaseUrl, ['checkout_sessions', 'outbox_messages']),
    count(platform.gatewayDatabaseUrl, ['idempotency_records']),
  ]);
  return Object.fromEntries([...checkout, ...gateway]);
}
