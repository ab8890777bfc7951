/**
 * "Measure before choosing" (issue 14): the gateway's per-request key lookup three ways, at the same
 * concurrency, in one run, on a database of its own:
 *
 *   Prisma   apiKey.findUnique({ include: { account } })   what every request did before ADR 0027
 *   pg       one prepared SELECT … JOIN on a pg.Pool        the same read without Prisma
 *   cache    KeyCache.findKeyByHash (a shared sync query)   what every request does now
 *
 *   node tools/bench/src/key-lookup.ts [seconds=5] [concurrency=64]
 *
 * Prints lookups/s and p50/p99; asserts nothing.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { GATEWAY_MIGRATIONS_DIR } from '@hc/gateway';
import { createGatewayPrisma, KeyCache, MerchantStore } from '@hc/gateway/testing';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { load1, percentiles } from './measure.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 64);
const url = withDatabase(testDatabaseServerUrl(), `bench_keys_${process.pid}`);
await ensureDatabase(url);
await migrateDatabase(url, GATEWAY_MIGRATIONS_DIR);
const keyHash = createHash('sha256').update('sk_test_bench').digest('hex');
const prisma = createGatewayPrisma(url);
await prisma.merchantAccount.create({
  data: { id: 'acct_bench', name: 'Bench', status: 'active', payoutWallet: null, feeBps: 100, createdAt: new Date() },
});
await prisma.apiKey.create({
  data: { id: 'key_bench', accountId: 'acct_bench', mode: 'test', keyHash, hint: 'ench', label: null, createdAt: new Date() },
});
const pool = new pg.Pool({ connectionString: url, max: 10 });
const cache = new KeyCache(new MerchantStore(prisma), url, createLogger('bench', { level: 'silent' }));
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
    await measure('Prisma findUnique include account', () => prisma.apiKey.findUnique({ where: { keyHash }, include: { account: true } }));
    await measure('pg prepared SELECT … JOIN (pool of 10)', () => pool.query(SQL));
    await measure('KeyCache (sync query shared per batch)', () => cache.findKeyByHash(keyHash));
  }
} finally {
  await cache.stop();
  await pool.end();
  await prisma.$disconnect();
  await dropDatabase(url).catch(() => undefined);
}
