/**
 * `pnpm bench:capacity`: what one payment costs, measured, and the sizes that follow (issue 46, item 6;
 * docs/capacity.md). Starts a platform of its own (own-platform.ts) with a webhook endpoint at a real
 * receiver that verifies every signature, then, at a modest fixed rate (open loop, open-loop.ts), takes
 * each payment the way a shop and its buyer do: create, the buyer views the hosted page, start,
 * simulated paid, the shop reads the payment. It waits until every webhook is answered and every
 * receipt mailed, then prints, per payment: CPU by process and PostgreSQL's CPU, transactions, rows
 * written and events per database; and the replicas, PostgreSQL cores, transactions and events a
 * second at 100, 1,000 and 10,000 payments a second (sizing.ts). Every CPU figure is above the
 * process's idle rate, measured in a window of the same length with no load before it (timers, polls
 * and heartbeats are a cost per replica, not per payment; printed apart).
 *
 *   node tools/bench/src/capacity.ts [--rate 10] [--seconds 30]
 *
 * CPU here is CPU time, which a busy shared machine inflates somewhat (caches, contention); the load
 * printed beside it says how busy. Loopback only; asserts nothing (never a test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { perPayment, snapshot, type PaymentCost } from './capacity-costs.ts';
import { load1 } from './measure.ts';
import { runOpenLoop } from './open-loop.ts';
import { platformProcesses, registerReceiver, startOwnPlatform } from './own-platform.ts';
import { backlog } from './pipeline-rate-figures.ts';
import { coresAt, nodesFor, replicasFor, TARGET_UTILISATION } from './sizing.ts';
import { startBenchReceiver } from './webhook-receiver.ts';

const { values } = parseArgs({ options: { rate: { type: 'string', default: '10' }, seconds: { type: 'string', default: '30' } } });
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const say = (line: string) => process.stdout.write(`${line}\n`);
const RATES = [100, 1_000, 10_000];
const CORES_PER_NODE = 16;
/** Processes of the local platform that a cluster does not run as ours: the Ingress does the front router's work, the mail catcher is a test double. */
const NOT_SIZED = new Set(['platform.ts (front router)', 'maildev.js']);

/** One payment as a shop and its buyer take it; resolves true when every step answered 2xx. */
async function payment(baseUrl: string, key: string, index: number, failures: Map<string, number>): Promise<boolean> {
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const step = async (name: string, url: string, init: RequestInit): Promise<Record<string, unknown> | undefined> => {
    const response = await fetch(url, init);
    const text = await response.text();
    if (response.ok) return text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {};
    failures.set(`${name} ${response.status}`, (failures.get(`${name} ${response.status}`) ?? 0) + 1);
    return undefined;
  };
  const body = { amount: '25.00', currency: 'EUR', description: `Capacity ${index}`, customer_email: `cap+${index}@example.com` };
  const created = await step('create', `${baseUrl}/v1/checkout_sessions`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  const id = String(created?.['id'] ?? '');
  if (!id || typeof created?.['url'] !== 'string') return false;
  if (!(await step('page view', created['url'], {}))) return false;
  if (!(await step('start', `${baseUrl}/v1/checkout_sessions/${id}/start`, { method: 'POST', headers: json, body: '{}' }))) return false;
  const paid = await step('simulate', `${baseUrl}/v1/payments/${id}/simulate`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ outcome: 'paid' }),
  });
  return paid !== undefined && (await step('read', `${baseUrl}/v1/payments/${id}`, { headers: auth })) !== undefined;
}

function printCosts(cost: PaymentCost, payments: number): void {
  say(`\nper payment (${payments} payments; create, page view, start, simulated paid, read; webhooks and receipts delivered):`);
  const processes = [...cost.cpuMs].sort((a, b) => b[1] - a[1]);
  const idle = (cores: number) => `(idle: ${(100 * cores).toFixed(1)}% of a core)`;
  for (const [name, ms] of processes) say(`  cpu ${name.padEnd(28)} ${ms.toFixed(2).padStart(7)} ms  ${idle(cost.idleCores.get(name)!)}`);
  say(`  cpu ${'postgres backends'.padEnd(28)} ${cost.postgresCpuMs.toFixed(2).padStart(7)} ms  ${idle(cost.postgresIdleCores)}`);
  say(`  ${'database'.padEnd(16)} ${'transactions'.padStart(12)} ${'rows written'.padStart(13)} ${'events'.padStart(7)}`);
  for (const db of cost.databases)
    say(
      `  ${db.name.padEnd(16)} ${db.commits.toFixed(1).padStart(12)} ${db.rowsWritten.toFixed(1).padStart(13)} ${db.outboxEvents.toFixed(1).padStart(7)}`,
    );
}

function printSizing(cost: PaymentCost): void {
  const services = [...cost.cpuMs].filter(([name]) => !NOT_SIZED.has(name));
  say(`\nsizes (1-vCPU pods at ${TARGET_UTILISATION * 100}% CPU, at least 2 each; ${CORES_PER_NODE}-vCPU nodes, one spare):`);
  say(`  ${'payments/s'.padEnd(28)} ${RATES.map((r) => String(r).padStart(9)).join('')}`);
  let totals = RATES.map(() => 0);
  for (const [name, ms] of services) {
    const replicas = RATES.map((r) => replicasFor(coresAt(r, ms) + cost.idleCores.get(name)!));
    totals = totals.map((t, i) => t + replicas[i]!);
    say(`  ${`${name} replicas`.padEnd(28)} ${replicas.map((n) => String(n).padStart(9)).join('')}`);
  }
  say(`  ${'nodes for the services'.padEnd(28)} ${totals.map((n) => String(nodesFor(n, CORES_PER_NODE)).padStart(9)).join('')}`);
  const pgCores = RATES.map((r) => Math.ceil((coresAt(r, cost.postgresCpuMs) + cost.postgresIdleCores) / TARGET_UTILISATION));
  say(`  ${'postgres vCPUs (all dbs)'.padEnd(28)} ${pgCores.map((n) => String(n).padStart(9)).join('')}`);
  for (const db of cost.databases.filter((d) => d.commits >= 0.5)) {
    say(`  ${`${db.name} transactions/s`.padEnd(28)} ${RATES.map((r) => String(Math.round(r * db.commits)).padStart(9)).join('')}`);
  }
  const events = cost.databases.reduce((sum, db) => sum + db.outboxEvents, 0);
  say(`  ${'events/s on the bus'.padEnd(28)} ${RATES.map((r) => String(Math.round(r * events)).padStart(9)).join('')}`);
}

const work = mkdtempSync(join(tmpdir(), 'hc-capacity-'));
say(`starting a platform of its own (load ${load1().toFixed(1)})…`);
const platform = await startOwnPlatform('capacity', work);
const receiver = await startBenchReceiver();
try {
  await registerReceiver(platform, receiver);
  const processes = platformProcesses(platform);
  const failures = new Map<string, number>();
  say(`idle for ${seconds} s (load ${load1().toFixed(1)})`);
  const idleFrom = await snapshot(platform, processes);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const idleTo = await snapshot(platform, processes);
  // A short warm-up (JIT, connection pools, caches) outside the measurement.
  await runOpenLoop(rate, 5, (i) => payment(platform.url, platform.key, -1 - i, failures).then(() => undefined));
  const before = await snapshot(platform, processes);
  let completed = 0;
  say(`\n${rate} payments/s for ${seconds} s (load ${load1().toFixed(1)})`);
  await runOpenLoop(rate, seconds, async (i) => {
    if (await payment(platform.url, platform.key, i, failures)) completed += 1;
  });
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const left = await backlog(platform, receiver);
    if (left.webhooksUnanswered <= 0 && left.mailsUnsent === 0 && left.outboxUnpublished === 0 && left.paidWithoutMail <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // Counters reach pg_stat_database when a backend is idle (at most a second later).
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const cost = perPayment({ from: idleFrom, to: idleTo }, before, await snapshot(platform, processes), completed);
  say(
    `  ${completed} paid; failures: ${[...failures].map(([what, n]) => `${what} ×${n}`).join(', ') || 'none'}; load at the end ${load1().toFixed(1)}`,
  );
  printCosts(cost, completed);
  printSizing(cost);
} finally {
  await receiver.stop();
  await platform.stop();
  rmSync(work, { recursive: true, force: true });
}
