/**
 * What `pnpm bench` compares the platform with, measured in the same round: pgbench on checkout's own
 * tables (a session + outbox insert; a primary-key select of a session; the payments list's page
 * query) in a database of the
 * benchmark's own, and bare `node:http` answering a fixed JSON body in a process of its own.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKOUT_MIGRATIONS_DIR } from '@hc/checkout';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '@hc/db';
import { checkoutEventSubject } from '@hc/events/contracts';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { load, pgbench, run, type Figure, type LoadClient } from './measure.ts';
import { FIGURES } from './goals.ts';

const SEEDED = 10_000;

export interface Baselines {
  readonly measure: (options: {
    connections: number;
    seconds: number;
    client: LoadClient;
  }) => Promise<{ insert: Figure; select: Figure; page: Figure; node: Figure }>;
  readonly stop: () => Promise<void>;
}

export async function prepareBaselines(work: string): Promise<Baselines> {
  const pgUrl = withDatabase(testDatabaseServerUrl(), `bench_pg_${process.pid}`);
  await ensureDatabase(pgUrl);
  await migrateDatabase(pgUrl, CHECKOUT_MIGRATIONS_DIR);
  await run('psql', [
    pgUrl,
    '-qc',
    `INSERT INTO checkout_sessions (id, account_id, livemode, status, amount, currency, description, customer_email, metadata, created_at, expires_at)
     SELECT 'pay_seed_' || i, 'acct_bench', false, 'open', 25.00, 'EUR', 'Benchmark order', 'bench@example.com', '{"run":"bench"}', now(), now() + interval '1 day'
     FROM generate_series(1, ${SEEDED}) AS i`,
  ]);
  // Statistics now, not when autovacuum gets to it: without them the planner sorted the whole table
  // for the page query (250 a second) instead of walking its index.
  await run('psql', [pgUrl, '-qc', 'ANALYZE checkout_sessions']);
  const insertScript = join(work, 'insert.sql');
  writeFileSync(
    insertScript,
    `BEGIN;
INSERT INTO checkout_sessions (id, account_id, livemode, status, amount, currency, description, customer_email, metadata, created_at, expires_at)
  VALUES ('pay_' || md5(random()::text), 'acct_bench', false, 'open', 25.00, 'EUR', 'Benchmark order', 'bench@example.com', '{"run":"bench"}', now(), now() + interval '1 day');
INSERT INTO outbox_messages (msg_id, subject, payload) VALUES (md5(random()::text), '${checkoutEventSubject('session.created', 'pay_x')}', '{"id":"pay_x","amount":"25.00","currency":"EUR"}');
END;
`,
  );
  const selectScript = join(work, 'select.sql');
  writeFileSync(selectScript, `\\set i random(1, ${SEEDED})\nSELECT * FROM checkout_sessions WHERE id = 'pay_seed_' || :i;\n`);
  // The payments list's own query: a page of 20 (and one to tell whether there are more), on its index.
  const pageScript = join(work, 'page.sql');
  writeFileSync(
    pageScript,
    `SELECT * FROM checkout_sessions WHERE account_id = 'acct_bench' AND livemode = false ORDER BY created_at DESC, id DESC LIMIT 21;\n`,
  );

  const bare = await startBareHttp();

  return {
    measure: async ({ connections, seconds, client }) => ({
      insert: await pgbench(FIGURES.pgInsert, pgUrl, insertScript, work, { clients: connections, seconds }),
      select: await pgbench(FIGURES.pgSelect, pgUrl, selectScript, work, { clients: connections, seconds }),
      page: await pgbench(FIGURES.pgPage, pgUrl, pageScript, work, { clients: connections, seconds }),
      node: await load(FIGURES.bareHttp, { connections, duration: seconds, url: bare.url }, client),
    }),
    stop: async () => {
      bare.stop();
      await dropDatabase(pgUrl).catch(() => undefined);
    },
  };
}

/** Bare `node:http` answering a fixed JSON body, in a process of its own: the HTTP ceiling of this machine. */
export async function startBareHttp(): Promise<{ url: string; stop: () => void }> {
  const bare = spawn(
    process.execPath,
    [
      '-e',
      `const s=require('node:http').createServer((q,r)=>{r.writeHead(200,{'content-type':'application/json'});r.end('{"ok":true}')});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve) => bare.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { url: `http://127.0.0.1:${port}/`, stop: () => bare.kill() };
}
