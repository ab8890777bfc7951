/**
 * The accountant's export in bounded memory (issue 32, docs/adr/0057): a checkout service of its own
 * on a database of its own with PAYMENTS paid payments (100,000 by default) of one account, then the
 * payments CSV read over checkout's ExportPayments stream and written by @hc/exports as the dashboard
 * and the CLI do, in separate processes, each reporting its peak RSS:
 *
 *   baseline   the same reader stopping after 1,000 rows (Node, gRPC and the CSV writer loaded)
 *   streamed   the same reader, every row                  → should stay near the baseline
 *   collected  every row gathered in memory, then written  → what "load all, then write" costs
 *
 * and checkout's own peak RSS in each run (a fresh checkout process per run, /usr/bin/time). Prints
 * figures; asserts nothing.
 *
 *   pnpm bench:export [payments=100000]   (node tools/bench/src/bench-export.ts)
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '@hc/db';
import { CHECKOUT_MIGRATIONS_DIR } from '@hc/checkout';
import { testDatabaseServerUrl } from '@hc/test-kit';
import pg from 'pg';

const PAYMENTS = Number(process.argv[2] ?? 100_000);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const ACCOUNT = 'acct_bench_export';
const url = withDatabase(testDatabaseServerUrl(), `bench_export_${process.pid}`);
await ensureDatabase(url);
await migrateDatabase(url, CHECKOUT_MIGRATIONS_DIR);

// Paid Test payments with their settlement columns, one second apart, newest now.
const seed = new pg.Client({ connectionString: url });
await seed.connect();
const seeding = performance.now();
await seed.query(
  `INSERT INTO checkout_sessions (id, account_id, livemode, status, amount, currency, description, reference, customer_email,
     created_at, expires_at, started_at, paid_at, provider, country, merchant_name, fee_bps, payout_wallet, usd_value,
     coin, value_coin, merchant_received, txid_in, txid_out, source)
   SELECT 'pay_bench' || lpad(g::text, 8, '0'), $1, false, 'paid', '19.90', 'usd', 'Blue mug ' || g, 'order-' || g,
     'buyer' || g || '@example.com', now() - make_interval(secs => $2 - g), now() + interval '1 hour',
     now() - make_interval(secs => $2 - g), now() - make_interval(secs => $2 - g), 'card', 'de', 'Bench shop', 200,
     '0x2222222222222222222222222222222222222222', '19.90', 'USDC', '19.900000', '19.502000',
     '0x' || md5('in' || g) || md5('in2' || g), '0x' || md5('out' || g) || md5('out2' || g), 'api'
   FROM generate_series(1, $2) AS g`,
  [ACCOUNT, PAYMENTS],
);
await seed.query('ANALYZE checkout_sessions');
await seed.end();
console.log(`seeded ${PAYMENTS} paid payments in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

/** Runs a command; resolves its exit code, stderr, and (through /usr/bin/time -f) the peak RSS in KiB. */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdout: string,
): { done: Promise<{ code: number | null; stderr: string }>; kill: () => void } {
  // Its own process group: /usr/bin/time passes no signal on, so a stop goes to the whole group.
  const child = spawn(args[0]!, args.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(createWriteStream(stdout));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    done: new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr }))),
    kill: () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGINT');
    },
  };
}

const port = 20_000 + (process.pid % 20_000);
const address = `127.0.0.1:${port}`;

/** A checkout service of its own for one run; stop() resolves its peak RSS in MiB. */
async function startCheckout(): Promise<{ stop: () => Promise<number> }> {
  const checkout = run(
    ['/usr/bin/time', '-f', 'checkout-max-rss-kib %M', process.execPath, join(ROOT, 'services/checkout/src/main.ts')],
    {
      ...process.env,
      CHECKOUT_DATABASE_URL: url,
      CHECKOUT_GRPC_ADDRESS: address,
      NATS_SUBJECT_PREFIX: `benchexport${process.pid}`,
      EXPIRY_SWEEP_INTERVAL_MS: '300000',
      LOG_LEVEL: 'warn',
    },
    '/dev/null',
  );
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return {
    async stop() {
      checkout.kill();
      const { stderr } = await checkout.done;
      const rss = /checkout-max-rss-kib (\d+)/.exec(stderr);
      return rss ? Number(rss[1]) / 1024 : NaN;
    },
  };
}

interface Reading {
  rows: number;
  seconds: number;
  maxRssMiB: number;
}
async function reader(how: 'stream' | 'collect', limit?: number): Promise<Reading & { checkoutMiB: number }> {
  const checkout = await startCheckout();
  try {
    const args = [
      process.execPath,
      join(import.meta.dirname, 'export-reader.ts'),
      address,
      ACCOUNT,
      how,
      ...(limit ? [String(limit)] : []),
    ];
    const { code, stderr } = await run(args, process.env, '/dev/null').done;
    const line = stderr.trim().split('\n').at(-1) ?? '';
    if (code !== 0) throw new Error(`export reader failed (${code}): ${stderr}`);
    return { ...(JSON.parse(line) as Reading), checkoutMiB: await checkout.stop() };
  } catch (error) {
    await checkout.stop();
    throw error;
  }
}

try {
  const rows: [string, Reading & { checkoutMiB: number }][] = [
    ['baseline (1,000 rows)', await reader('stream', 1000)],
    [`streamed (${PAYMENTS.toLocaleString('en')} rows)`, await reader('stream')],
    [`collected (${PAYMENTS.toLocaleString('en')} rows)`, await reader('collect')],
  ];
  console.log('\nreader                        rows      seconds   reader peak RSS (MiB)   checkout peak RSS (MiB)');
  for (const [name, r] of rows)
    console.log(
      `${name.padEnd(28)} ${String(r.rows).padStart(8)} ${r.seconds.toFixed(1).padStart(10)} ${r.maxRssMiB.toFixed(0).padStart(23)} ${r.checkoutMiB.toFixed(0).padStart(25)}`,
    );
} finally {
  await dropDatabase(url);
}
