// Risk covered: "a crash at any line loses nothing" (issue 18). The real supervised platform
// (tools/platform/src/platform.ts) runs on a PostgreSQL and a NATS of the suite's own; a steady load of Test
// payments goes create → start → simulate with a signed-webhook receiver, while the suite kills, in
// turn and at seeded random moments, each service process (their outbox relays and consumers live
// inside them), two at once, NATS, and crashes PostgreSQL. Then: every payment in the state its outcome
// implies, every expected webhook delivered once (0 lost, 0 duplicated), customers' counters equal to a
// recount, idempotent retries answered with the first session. Seeded: FAULTS_SEED replays a run;
// FAULTS_SIZE=full (pnpm test:faults) is the large run, the default a CI-sized one. docs/reliability.md.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { eventually } from '@hc/test-kit';
import { startDisposablePlatform, unplannedDeaths, type DisposablePlatform } from '../faults/disposable-platform.ts';
import { describeFault, inject, planFaults, type InjectedFault } from '../faults/fault-injector.ts';
import {
  checkIdempotency,
  checkStatuses,
  checkWebhooks,
  noFindings,
  recountCustomers,
  type CustomerFigures,
  type Findings,
} from '../faults/outcome-checks.ts';
import { planPayments, runLoad } from '../faults/payment-load.ts';

const FULL = process.env['FAULTS_SIZE'] === 'full';
// CI size (every run of ./scripts/test and .ci/run): every process killed once, one pair, one NATS
// outage, one PostgreSQL crash, under a load of a few hundred payments. Full: three such rounds.
const SIZE = FULL ? { payments: 600, concurrency: 8, rounds: 3 } : { payments: 240, concurrency: 6, rounds: 1 };
const SEED = Number(process.env['FAULTS_SEED'] ?? 20261123);
const EMAILS = ['ana@example.com', 'bo@example.com', 'cy@example.com', 'di@example.com', 'ed@example.com'];

let setup: DisposablePlatform;
/** The platform's logs are kept (and their folder printed) unless the run passed. */
let passed = false;

beforeAll(async () => {
  setup = await startDisposablePlatform('faults');
}, 180_000);

afterAll(async () => {
  await setup?.stop(!passed);
  if (setup && !passed) process.stdout.write(`fault suite: the platform's logs are kept in ${setup.logs}\n`);
});

const gateway = (): string => setup.gatewayUrl;
const key = (): string => setup.key;

async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const response = await fetch(`${gateway()}${path}`, {
      headers: { authorization: `Bearer ${key()}` },
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
  } catch {
    return { status: 0, body: {} };
  }
}

async function recovered(): Promise<void> {
  await eventually(
    async () =>
      (await fetch(`${gateway()}/readyz`).catch(() => null))?.status === 200 && (await get('/v1/payments?limit=1')).status === 200,
    (ok) => ok,
    90_000,
  );
}

it(
  `loses and doubles nothing while every process, NATS and PostgreSQL fail under load (seed ${SEED})`,
  async () => {
    const rng = xoroshiro128plus(SEED);
    const payments = planPayments({
      gatewayUrl: gateway(),
      key: key(),
      payments: SIZE.payments,
      concurrency: SIZE.concurrency,
      emails: EMAILS,
      rng,
      label: `faults-${SEED}`,
      stepDeadlineMs: 90_000,
    });
    const faults = planFaults(rng, SIZE.rounds);
    const began = Date.now();
    const marker = setup.platform.stderr().length;

    const load = runLoad(
      {
        gatewayUrl: gateway(),
        key: key(),
        payments: SIZE.payments,
        concurrency: SIZE.concurrency,
        emails: EMAILS,
        rng,
        label: '',
        stepDeadlineMs: 90_000,
      },
      payments,
    );
    const injected: InjectedFault[] = [];
    // A seeded moment for each fault: in-flight requests, events and deliveries are cut at random points.
    const pauses = faults.map(() => uniformInt(rng, 200, 1500));
    for (const [i, fault] of faults.entries()) {
      await new Promise((resolve) => setTimeout(resolve, pauses[i]));
      injected.push(await inject(fault, { stderr: () => setup.platform.stderr(), nats: setup.nats, postgres: setup.postgres, recovered }));
    }
    const loadFailures = await load;
    const loadSeconds = (Date.now() - began) / 1000;

    // Settled: every payment final, every expected webhook in (bounded waits; what is missing then is lost).
    const statuses = new Map<string, string>();
    await eventually(
      async () => {
        for (const p of payments.filter((x) => x.id && statuses.get(x.id) === undefined)) {
          const read = await get(`/v1/payments/${p.id}`);
          if (read.status === 200 && read.body['status'] !== 'open') statuses.set(p.id!, String(read.body['status']));
        }
        return checkStatuses(
          payments.filter((p) => p.id),
          statuses,
        );
      },
      (wrong) => wrong.length === 0,
      60_000,
    );
    const done = payments.filter((p) => p.done);
    await eventually(
      async () => checkWebhooks(done, setup.receiver.deliveries).lost,
      (lost) => lost.length === 0,
      90_000,
    );
    // Time for a duplicate to show up, if one were on its way.
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    // Customers reads wait for the projection or answer 503 catching_up (retryable): read until settled.
    const recount = recountCustomers(done);
    const customerMismatches = async (): Promise<string[]> => {
      const wrong: string[] = [];
      for (const [email, expected] of recount) {
        const read = await get(`/v1/customers?email=${encodeURIComponent(email)}`);
        const customer = (read.body['data'] as CustomerFigures[] | undefined)?.[0];
        const actual = customer && {
          orders_count: customer.orders_count,
          paid_orders_count: customer.paid_orders_count,
          spent: customer.spent,
        };
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          wrong.push(`${email}: ${read.status} ${JSON.stringify(actual)} ≠ recount ${JSON.stringify(expected)}`);
      }
      return wrong;
    };
    const wrongCustomers = await eventually(customerMismatches, (wrong) => wrong.length === 0, 30_000);
    const findings: Findings = {
      wrongStatus: checkStatuses(done, statuses),
      ...checkWebhooks(done, setup.receiver.deliveries),
      wrongCustomers,
      idempotencyBroken: checkIdempotency(done),
    };
    const deaths = unplannedDeaths(setup.platform.stderr().slice(marker));

    const report = [
      `fault suite, seed ${SEED} (${FULL ? 'full' : 'CI'} size): ${payments.length} payments, ${done.length} completed, ${loadSeconds.toFixed(1)} s of load`,
      `faults: ${injected.length} (${injected.filter((f) => f.fault.kind === 'kill').length} kills, ${injected.filter((f) => f.fault.kind === 'nats').length} NATS, ${injected.filter((f) => f.fault.kind === 'postgres').length} PostgreSQL)`,
      ...injected.map((f) => `  ${describeFault(f.fault).padEnd(40)} recovered in ${f.recoveryMs} ms`),
      `client retries: ${payments.reduce((n, p) => n + p.retries, 0)}; webhook deliveries: ${setup.receiver.deliveries.length}; unsigned or forged: ${setup.receiver.forged}`,
      `lost: ${findings.lost.length}; duplicated: ${findings.duplicated.length}; unexpected events: ${findings.unexpected.length}; wrong status: ${findings.wrongStatus.length}; wrong customers: ${wrongCustomers.length}; idempotency broken: ${findings.idempotencyBroken.length}`,
      ...Object.entries(findings)
        .filter(([, list]) => list.length > 0)
        .map(([name, list]) => `  ${name}: ${list.slice(0, 5).join(' | ')}`),
      `processes that died without being killed: ${deaths.join('; ') || 'none'}`,
      summaryLine(SEED, injected, done.length, findings, deaths),
    ].join('\n');
    process.stdout.write(`\n${report}\n`);

    expect(loadFailures).toEqual([]);
    expect(noFindings(findings) ? 'nothing lost or doubled' : findings).toBe('nothing lost or doubled');
    expect(setup.receiver.forged).toBe(0);
    // Services ride out NATS and PostgreSQL going away (reconnecting) instead of crashing into a restart.
    expect(deaths).toEqual([]);
    passed = true;
  },
  FULL ? 1_800_000 : 600_000,
);

/** One line for CI logs: the faults injected by name and every count checked. */
function summaryLine(
  seed: number,
  injected: readonly InjectedFault[],
  checked: number,
  findings: Findings,
  deaths: readonly string[],
): string {
  const faults = injected.map((f) => describeFault(f.fault)).join(', ');
  const counts = Object.entries(findings)
    .map(([name, list]) => `${list.length} ${name}`)
    .join(', ');
  const verdict = noFindings(findings) && deaths.length === 0 ? 'PASSED' : 'FAILED';
  return `fault suite ${verdict} (seed ${seed}, ${FULL ? 'full' : 'CI'} size): ${injected.length} faults [${faults}]; ${checked} payments checked: ${counts}, ${deaths.length} unplanned deaths`;
}
