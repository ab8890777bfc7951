/**
 * `pnpm bench:pipeline`: the event pipeline at a fixed rate (issue 50, items 3 and 4). Starts a platform
 * of its own (own-platform.ts), registers a webhook endpoint at a real local receiver that verifies
 * every signature (webhook-receiver.ts), then drives payments create → start → simulated paid on an
 * open-loop schedule (open-loop.ts: started on time whether or not earlier ones have answered; late
 * starts counted) for --seconds, and prints:
 *
 *   the sustained rate (payments completed a second) and errors by step and status;
 *   webhook lag p50/p99/max: the event's checkout outbox row (written in the state change's own
 *     transaction: the event committed) → the receiver answered;
 *   mail lag p50/p99: payment.paid's outbox row → the receipt accepted by the local mail catcher (sent_at);
 *   the backlog 5 s after the load stops: webhooks not yet answered, mails not yet sent, outbox rows
 *     not yet published (every service);
 *   each platform process's CPU per paid payment (and PostgreSQL's, the load generator's, the
 *     machine's), from the first create until every webhook and mail is out: where the ceiling is;
 *   each platform process's resident memory at idle and at the end of the load;
 *
 * beside a baseline taken in the same run: the same open loop, three POSTs a payment, against bare
 * node:http in a process of its own. It says whether this load generator, on this machine at this
 * moment, can keep the schedule at all; whatever the platform falls short of it is the platform's.
 *
 *   node tools/bench/src/pipeline-rate.ts [--rate 200] [--seconds 60] [--settle 5] [--drain 60]
 *
 * BENCH_KEEP_HOME=1 keeps the platform's home (its processes' logs) in the temporary folder it names.
 * Loopback only; asserts nothing (never a test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBareHttp } from './baselines.ts';
import { cpuSplit, load1 } from './measure.ts';
import { residentNow, residentTable } from './resident.ts';
import { itemCount, runOpenLoop, spread, type Spread } from './open-loop.ts';
import { platformProcesses, registerReceiver, startOwnPlatform } from './own-platform.ts';
import { backlog, lags, type Backlog } from './pipeline-rate-figures.ts';
import { startBenchReceiver } from './webhook-receiver.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    settle: { type: 'string', default: '5' },
    drain: { type: 'string', default: '60' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const settleSeconds = Number(values.settle);
const drainSeconds = Number(values.drain);
const say = (line: string) => process.stdout.write(`${line}\n`);
const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(0) : '-');
const show = (s: Spread): string => `n ${s.n}  p50 ${ms(s.p50)} ms  p99 ${ms(s.p99)} ms  max ${ms(s.max)} ms`;

/** One payment's three calls, each step's failures counted by status; resolves true when it was paid. */
type Step = (index: number, previous: string) => { path: string; body: unknown };
const STEPS: [string, Step][] = [
  [
    'create',
    (i) => ({
      path: '/v1/checkout_sessions',
      body: { amount: '25.00', currency: 'EUR', description: `Pipeline ${i}`, customer_email: `bench+${i}@example.com` },
    }),
  ],
  ['start', (_, id) => ({ path: `/v1/checkout_sessions/${id}/start`, body: {} })],
  ['simulate', (_, id) => ({ path: `/v1/payments/${id}/simulate`, body: { outcome: 'paid' } })],
];

interface Drive {
  completed: number;
  latencies: number[];
  errors: Map<string, number>;
}

async function drive(baseUrl: string, key: string, label: string): Promise<Drive & { late: number; elapsedMs: number }> {
  const result: Drive = { completed: 0, latencies: [], errors: new Map() };
  const fail = (what: string): void => void result.errors.set(what, (result.errors.get(what) ?? 0) + 1);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const loop = await runOpenLoop(rate, seconds, async (index) => {
    const began = performance.now();
    let id = '';
    for (const [name, step] of STEPS) {
      const { path, body } = step(index, id);
      try {
        const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
        const answer = (await response.json()) as { id?: string; error?: { code?: string } };
        if (!response.ok) return fail(`${name} ${response.status} ${answer.error?.code ?? ''}`.trim());
        id = answer.id ?? id;
      } catch (error) {
        return fail(`${name} ${error instanceof Error ? error.name : 'error'}`);
      }
    }
    result.completed += 1;
    result.latencies.push(performance.now() - began);
  });
  say(`  ${label}: ${report({ ...result, ...loop })}`);
  return { ...result, ...loop };
}

function report(run: Drive & { late: number; elapsedMs: number }): string {
  const errors = [...run.errors].map(([what, n]) => `${what} ×${n}`).join(', ') || 'none';
  return (
    `${run.completed}/${itemCount(rate, seconds)} paid, sustained ${((1000 * run.completed) / run.elapsedMs).toFixed(1)} payments/s ` +
    `(${(run.elapsedMs / 1000).toFixed(1)} s until the last answered), late starts ${run.late}; ` +
    `create→paid ${show(spread(run.latencies))}; errors: ${errors}`
  );
}

function sayBacklog(when: string, b: Backlog): void {
  say(
    `  backlog ${when}: webhooks not answered ${b.webhooksUnanswered} (deliveries pending ${b.deliveriesPending}), ` +
      `mails not sent ${b.mailsUnsent}${b.mailStates ? ` [${b.mailStates}]` : ''} (paid without a receipt row ${b.paidWithoutMail}), outbox unpublished ${b.outboxUnpublished}`,
  );
}

const work = mkdtempSync(join(tmpdir(), 'hc-pipeline-'));
say(
  `starting a platform of its own (load ${load1().toFixed(1)})…${process.env['BENCH_KEEP_HOME'] ? ` its logs: ${work}/.platform/logs` : ''}`,
);
const platform = await startOwnPlatform('pipeline', work);
const receiver = await startBenchReceiver();
const bare = await startBareHttp();
try {
  await registerReceiver(platform, receiver);
  const processes = platformProcesses(platform);
  const idle = residentNow(processes);

  say(`\n${rate} payments/s offered for ${seconds} s, open loop; 2 cores shared with other users`);
  say(`baseline (load ${load1().toFixed(1)}): the same open loop, 3 POSTs a payment, against bare node:http`);
  await drive(bare.url, 'none', 'node:http');
  say(`platform (load ${load1().toFixed(1)}): create → start → simulate paid at ${platform.apiUrl}`);
  // Each process's CPU from the first create until every webhook and mail is out: what one payment costs.
  const cpuPerPayment = cpuSplit(processes);
  const driven = await drive(platform.apiUrl, platform.key, 'platform');
  const loaded = residentNow(processes);
  const loadAtEnd = load1();

  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  sayBacklog(`${settleSeconds} s after the load (load ${load1().toFixed(1)})`, await backlog(platform, receiver));
  // Lags of every event and mail, not only those in time: wait (bounded) for the stragglers of both.
  const until = Date.now() + drainSeconds * 1000;
  const drainStarted = Date.now();
  for (;;) {
    const now = await backlog(platform, receiver);
    if ((now.webhooksUnanswered === 0 && now.mailsUnsent === 0) || Date.now() >= until) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const drainedIn = ((Date.now() - drainStarted) / 1000).toFixed(1);
  if (driven.completed > 0) say(`  CPU per paid payment, first create → drained: ${cpuPerPayment(driven.completed)}`);
  const lag = await lags(platform, receiver);
  say(`  webhook lag, outbox row → receiver answered: ${show(lag.webhook)}; unverified deliveries ${receiver.unverified()}`);
  say(`  mail lag, paid's outbox row → mail caught:    ${show(lag.mail)}`);
  const left = await backlog(platform, receiver);
  if (left.webhooksUnanswered > 0 || left.mailsUnsent > 0) sayBacklog(`after ${drainedIn} s more (at most ${drainSeconds})`, left);
  else say(`  drained: every webhook answered and every mail sent ${drainedIn} s after the ${settleSeconds} s settle`);

  const title = `\nresident memory (VmRSS) per platform process, MB — idle after start / at the end of the load (load ${loadAtEnd.toFixed(1)}):`;
  for (const line of residentTable(title, processes, idle, loaded)) say(line);
} finally {
  bare.stop();
  await receiver.stop();
  await platform.stop();
  if (!process.env['BENCH_KEEP_HOME']) rmSync(work, { recursive: true, force: true });
}
