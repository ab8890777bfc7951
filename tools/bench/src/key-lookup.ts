/**
 * "Measure before choosing" (issue 14): the gateway's per-request key lookup, at the same concurrency,
 * in one run, against an accounts service of its own (docs/adr/0085, 0108):
 *
 *   pg          one prepared SELECT … JOIN on accounts' database    the read under every answer
 *   directory   KeyDirectoryService.FindKeyByHash over gRPC         a lookup that cannot use the cache
 *   cache       KeyCache.findKeyByHash (under its lease: no call)   what every request does now
 *
 *   node tools/bench/src/key-lookup.ts [seconds=5] [concurrency=64]
 *
 * Prints lookups/s and p50/p99; asserts nothing.
 */
import pg from 'pg';
import { ACCOUNTS_MIGRATIONS_DIR, hashApiKey, loadAccountsConfig, startAccountsService } from '@hc/accounts';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { KeyCache, keyDirectoryClient } from '@hc/gateway/testing';
import { testDatabaseServerUrl, testNatsPrefix, testNatsUrl } from '@hc/test-kit';
import { load1, percentiles } from './measure.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 64);
const url = withDatabase(testDatabaseServerUrl(), `bench_keys_${process.pid}`);
await ensureDatabase(url);
await migrateDatabase(url, ACCOUNTS_MIGRATIONS_DIR);
const logger = createLogger('bench', { level: 'silent' });
const accounts = await startAccountsService(
  loadAccountsConfig({
    ACCOUNTS_DATABASE_URL: url,
    ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: testNatsPrefix('bench'),
    LOG_LEVEL: 'silent',
  }),
  logger,
);
const account = await accounts.operations.createAccount({ name: 'Bench' });
const keyHash = hashApiKey((await accounts.operations.createKey(account.id, 'test')).secret);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const directory = keyDirectoryClient(accounts.address, 5000);
const cache = new KeyCache(directory, logger);
await cache.start();

async function measure(title: string, lookup: () => Promise<unknown>): Promise<void> {
  const load = load1();
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const began = performance.now();
        await lookup();
        latencies.push(performance.now() - began);
      }
    }),
  );
  const { p50, p99 } = percentiles(latencies);
  console.log(
    `${title.padEnd(44)} ${(latencies.length / seconds).toFixed(0).padStart(7)} /s  p50 ${p50.toFixed(2).padStart(7)} ms  p99 ${p99.toFixed(2).padStart(7)} ms  load ${load.toFixed(1)}`,
  );
}

const SQL = {
  name: 'key-by-hash',
  text: `SELECT k.id, k.account_id, k.mode, k.hint, k.label, k.created_at, k.revoked_at, a.name, a.status, a.payout_wallet, a.fee_bps, a.created_at AS account_created_at
         FROM api_keys k JOIN merchant_accounts a ON a.id = k.account_id WHERE k.key_hash = $1`,
  values: [keyHash],
};
try {
  for (let round = 1; round <= 2; round += 1) {
    await measure('pg prepared SELECT … JOIN (pool of 10)', () => pool.query(SQL));
    await measure('directory FindKeyByHash (gRPC, no cache)', () => directory.findKeyByHash(keyHash));
    await measure('KeyCache (under its lease, no call)', () => cache.findKeyByHash(keyHash));
  }
} finally {
  await cache.stop();
  directory.close();
  await pool.end();
  await accounts.stop();
  await dropDatabase(url).catch(() => undefined);
}
