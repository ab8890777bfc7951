/**
 * `pnpm bench`: the platform's hot paths next to what the database and Node alone can do, in ONE run
 * on this machine (docs/performance.md). It prints, per round, as req/s, p50, p99, errors, the 1-minute
 * load average when taken, and the ratio to its baseline:
 *
 *   pgbench  insert a session row + an outbox row (one transaction)   baseline of the creates
 *   pgbench  primary-key select of a session                          baseline of the reads
 *   pgbench  the payments list's page query (20 rows, newest first)   baseline of the list
 *   node:http answering a fixed JSON body                             the HTTP ceiling
 *   POST /v1/checkout_sessions, the same with a fresh Idempotency-Key per request, GET /v1/payments/:id,
 *   GET /v1/checkout_sessions/:id, GET /v1/payments?limit=20, and the hosted page GET /pay/{id} both
 *   as an ingress sends it (straight to the pages process) and through the dev front router, beside
 *   the API's read by id (issue 50: a page view at the speed of a read)
 *
 * and, after each round, whether each throughput goal of issue 33 (goals.ts) was met in it;
 * then the event pipeline after a create burst: time until the outbox is published and each consumer
 * of checkout's stream has settled, and per-event lag (outbox → published, outbox → customers applied);
 * and the CPU seconds each platform process used. It asserts nothing: never a test. Every HTTP figure is
 * driven by wrk (docs/adr/0068); --client autocannon drives them with autocannon, as before it.
 *
 *   pnpm bench [--seconds 10] [--connections 64] [--burst 30] [--rounds 2] [--warmup 3] [--profile DIR] [--client wrk|autocannon]
 *
 * By default it starts a platform of its own (tools/platform/src/platform.ts on free ports, its own databases
 * and NATS prefix, rate limits raised) and stops it afterwards; --profile runs every process with
 * --cpu-prof into DIR and prints where each one's CPU went. With GATEWAY_URL and TEST_SECRET_KEY it
 * measures a platform already running instead (no pipeline or CPU figures then). Loopback only.
 * Before the first round, --warmup seconds each of creates, idempotent creates and reads warm the platform up unreported.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareBaselines } from './baselines.ts';
import { FIGURES, GOALS, judgeGoals } from './goals.ts';
import { cpuSeconds, descendants, formatRow, load, load1, loadClient, type Figure, type LoadOptions } from './measure.ts';
import { drainAfterBurst, type PipelineTarget } from './pipeline.ts';
import { summarizeProfile } from './profile.ts';
import { platformProcesses, startOwnPlatform, type OwnPlatform } from './own-platform.ts';
import { residentNow, residentPeak, residentTable } from './resident.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    burst: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '2' },
    profile: { type: 'string' },
    warmup: { type: 'string', default: '3' },
    client: { type: 'string', default: 'wrk' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const burstSeconds = Number(values.burst);
const rounds = Number(values.rounds);
const warmupSeconds = Number(values.warmup);
const client = loadClient(values.client);
const measureLoad = (title: string, options: LoadOptions): Promise<Figure> => load(title, options, client);
const work = mkdtempSync(join(tmpdir(), 'hc-bench-'));
const say = (line: string) => process.stdout.write(`${line}\n`);

// --- the platform under test -------------------------------------------------------------------
let target: { url: string; apiUrl: string; pagesUrl?: string; key: string; pipeline?: PipelineTarget; pid?: number };
let own: OwnPlatform | undefined;
let stop = async (): Promise<void> => undefined;
const ownUrl = process.env['GATEWAY_URL'];
if (ownUrl && process.env['TEST_SECRET_KEY']) {
  const host = new URL(ownUrl).hostname;
  if (host !== 'localhost' && host !== '::1' && !host.startsWith('127.')) throw new Error('Benchmarks only target this machine.');
  target = { url: ownUrl, apiUrl: ownUrl, key: process.env['TEST_SECRET_KEY'] };
} else {
  const extraEnv: NodeJS.ProcessEnv = {};
  if (values.profile) {
    mkdirSync(values.profile, { recursive: true });
    extraEnv['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} --cpu-prof --cpu-prof-dir=${values.profile}`.trim();
  }
  say(`starting a platform of its own (load ${load1().toFixed(1)})…`);
  const platform = await startOwnPlatform('bench', work, extraEnv);
  // apiUrl is the gateway itself, as an ingress sends the API to it; url is the front router.
  target = platform;
  own = platform;
  stop = platform.stop;
}

// --- the baselines: pgbench on checkout's own tables, bare node:http (baselines.ts) ----------------
const baselines = await prepareBaselines(work);

const headers = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
const body = JSON.stringify({
  amount: '25.00',
  currency: 'EUR',
  description: 'Benchmark order',
  customer_email: 'bench@example.com',
  metadata: { run: 'bench' },
});
const created = (await (await fetch(`${target.apiUrl}/v1/checkout_sessions`, { method: 'POST', headers, body })).json()) as { id: string };
const common = { duration: seconds, connections };
const creates = { url: `${target.apiUrl}/v1/checkout_sessions`, method: 'POST' as const, headers, body };
// A fresh key per request: every one is a first request, as an SDK's creates are.
const idempotentCreates = { ...creates, freshIdempotencyKey: true };

// Issue 50 item 4: each process's resident memory idle (started, seeded, before any load) and at its
// peak during the create bursts below.
const memoryOf = own ? platformProcesses(own) : [];
const idleMemory = residentNow(memoryOf);
let burstMemory: Map<number, number> | undefined;

// A platform just started has cold JIT, empty pools and unprepared statements: its first seconds say
// how it starts, not how it runs. Creates and reads at full concurrency first, not reported.
if (warmupSeconds > 0) {
  say(`warming up for ${3 * warmupSeconds} s (creates, idempotent creates, then reads; not reported)…`);
  await measureLoad('warm-up create', { connections, duration: warmupSeconds, ...creates });
  // The idempotent create too: its records table and prepared statements start empty and cold.
  await measureLoad('warm-up create with Idempotency-Key', { connections, duration: warmupSeconds, ...idempotentCreates });
  await measureLoad('warm-up get', {
    connections,
    duration: warmupSeconds,
    url: `${target.apiUrl}/v1/checkout_sessions/${created.id}`,
    headers,
  });
}

const goalsMet: number[] = [];
const processes = target.pid ? descendants(target.pid) : [];
const cpuBefore = new Map(processes.map((p) => [p.pid, cpuSeconds(p.pid)]));
const began = performance.now();

try {
  say(
    `\n${seconds} s per figure, ${connections} connections, ${rounds} rounds; API at ${target.apiUrl}; 2 cores shared with other users\n`,
  );
  for (let round = 1; round <= rounds; round += 1) {
    say(`round ${round} (load ${load1().toFixed(1)})`);
    const { insert, select, page, node } = await baselines.measure({ connections, seconds, client });
    const getPayment = await measureLoad(FIGURES.getPayment, { ...common, url: `${target.apiUrl}/v1/payments/${created.id}`, headers });
    const figures: [Figure, Figure | undefined][] = [
      [insert, undefined],
      [select, undefined],
      [page, undefined],
      [node, undefined],
      [await measureLoad(FIGURES.create, { ...common, ...creates }), insert],
      [await measureLoad(FIGURES.idempotentCreate, { ...common, ...idempotentCreates }), insert],
      [getPayment, select],
      [
        await measureLoad('GET /v1/checkout_sessions/:id', {
          ...common,
          url: `${target.apiUrl}/v1/checkout_sessions/${created.id}`,
          headers,
        }),
        select,
      ],
      [await measureLoad(FIGURES.listPayments, { ...common, url: `${target.apiUrl}/v1/payments?limit=20`, headers }), page],
      ...(target.pagesUrl
        ? [
            [
              await measureLoad(FIGURES.page, {
                ...common,
                url: `${target.pagesUrl}/pay/${created.id}`,
                headers: { 'accept-language': 'en' },
              }),
              getPayment,
            ] as [Figure, Figure],
          ]
        : []),
      [
        await measureLoad('GET /pay/{id} (front router)', {
          ...common,
          url: `${target.url}/pay/${created.id}`,
          headers: { 'accept-language': 'en' },
        }),
        getPayment,
      ],
    ];
    for (const [figure, baseline] of figures) say(formatRow(figure, baseline));
    const verdicts = judgeGoals(figures.map(([figure]) => figure));
    verdicts.forEach((verdict, index) => (goalsMet[index] = (goalsMet[index] ?? 0) + (verdict.met ? 1 : 0)));
    say(`goals (issues 33 and 50), round ${round}:`);
    for (const verdict of verdicts) say(`  ${verdict.line}`);
    say('');
  }

  if (target.pipeline) {
    for (let round = 1; round <= rounds; round += 1) {
      const since = new Date(Date.now() - 1000);
      const sampler = residentPeak(memoryOf);
      const burst = await measureLoad(`create burst ${burstSeconds} s`, {
        ...common,
        duration: burstSeconds,
        url: `${target.apiUrl}/v1/checkout_sessions`,
        method: 'POST',
        headers,
        body,
      });
      const burstEnd = performance.now();
      const peak = sampler.stop();
      burstMemory = new Map([...peak].map(([pid, mb]) => [pid, Math.max(mb, burstMemory?.get(pid) ?? 0)]));
      const drained = await drainAfterBurst(target.pipeline, burstEnd, since);
      say(formatRow(burst));
      say(
        `  pipeline (load ${load1().toFixed(1)}): ${drained.events} events; outbox published ${(drained.outboxDrainedMs / 1000).toFixed(1)} s after the burst; ` +
          Object.entries(drained.consumersDrainedMs)
            .map(([owner, ms]) => `${owner} drained ${(ms / 1000).toFixed(1)} s`)
            .join(', '),
      );
      say(
        `  lag per event: outbox→published p50 ${drained.publishLag.p50.toFixed(0)} ms p99 ${drained.publishLag.p99.toFixed(0)} ms; ` +
          `outbox→customers applied p50 ${drained.customersLag.p50.toFixed(0)} ms p99 ${drained.customersLag.p99.toFixed(0)} ms\n`,
      );
    }
  }

  if (processes.length > 0) {
    const wall = (performance.now() - began) / 1000;
    say(`CPU per platform process over ${wall.toFixed(0)} s of benchmark (2 cores = ${(2 * wall).toFixed(0)} CPU s):`);
    for (const p of processes) say(`  ${p.name.padEnd(28)} ${(cpuSeconds(p.pid) - (cpuBefore.get(p.pid) ?? 0)).toFixed(1).padStart(7)} s`);
  }
  if (memoryOf.length > 0) {
    const title = `\nresident memory (VmRSS) per platform process, MB — idle before the load${burstMemory ? ' / peak during the create bursts' : ''}:`;
    for (const line of residentTable(title, memoryOf, idleMemory, burstMemory)) say(line);
  }
} finally {
  await baselines.stop();
  await stop();
  rmSync(work, { recursive: true, force: true });
}

say(`\ngoals met, of ${rounds} round(s):`);
GOALS.forEach((goal, index) =>
  say(
    `  ${goalsMet[index] ?? 0}/${rounds}  ${goal.figure} ≥ ${goal.minSharePercent}% of ${goal.baseline}${goal.maxP99Ms === undefined ? '' : `, p99 ≤ ${goal.maxP99Ms} ms`}`,
  ),
);

if (values.profile) {
  for (const file of readdirSync(values.profile).filter((name) => name.endsWith('.cpuprofile'))) {
    const { total, layers } = summarizeProfile(join(values.profile, file));
    if (total < 1000) continue;
    const pid = Number(file.split('.')[3]);
    const name = processes.find((p) => p.pid === pid)?.name ?? 'platform.ts (front router)';
    say(`\n${name} (${file}): ${(total / 1000).toFixed(1)} s busy`);
    for (const [layer, ms] of layers.slice(0, 15)) say(`  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${layer}`);
  }
}
