/**
 * Database round trips per request, counted by PostgreSQL itself: each statement sent outside a
 * transaction (a Sync of the extended protocol) and each transaction is one commit in
 * pg_stat_database. Background work (relays, consumers, sweepers) commits too, so an idle window of
 * the same length is counted and taken off. PostgreSQL 15 flushes a backend's counters when it goes
 * idle, at most every second and at the latest after 10 s: each window waits that out.
 */
import pg from 'pg';

const FLUSH_MS = 11_000;

/** Commits so far in each database. */
async function commits(databases: Record<string, string>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, url] of Object.entries(databases)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
      );
      counts[name] = Number(rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  }
  return counts;
}

async function window(
  databases: Record<string, string>,
  work: () => Promise<void>,
): Promise<{ counts: Record<string, number>; ms: number }> {
  const before = await commits(databases);
  const started = performance.now();
  await work();
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
  const after = await commits(databases);
  const counts = Object.fromEntries(Object.keys(databases).map((name) => [name, after[name]! - before[name]! - 1]));
  return { counts, ms: performance.now() - started };
}

/** "checkout 1.00, customers 3.00, …": round trips per request of `url` in each database. */
export async function roundTripsPerRequest(
  url: string,
  headers: Record<string, string>,
  databases: Record<string, string>,
  requests: number,
): Promise<string> {
  const busy = await window(databases, async () => {
    for (let i = 0; i < requests; i += 1) {
      const answer = await fetch(url, { headers });
      if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
      await answer.arrayBuffer();
    }
  });
  const idle = await window(databases, () => new Promise((resolve) => setTimeout(resolve, Math.max(0, busy.ms - FLUSH_MS))));
  return Object.keys(databases)
    .map((name) => `${name} ${((busy.counts[name]! - idle.counts[name]!) / requests).toFixed(2)}`)
    .join(', ');
}
