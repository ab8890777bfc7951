// Risk covered: "a crash at any line loses nothing" (issue 18). The real supervised platform
// (scripts/platform.ts) runs on a PostgreSQL and a NATS of the suite's own; a steady load of Test
// payments goes create → start → simulate with a signed-webhook receiver, while the suite kills, in
// turn and at seeded random moments, each service process (their outbox relays and consumers live
// inside them), two at once, NATS, and crashes PostgreSQL. Then: every payment in the state its outcome
// implies, every expected webhook delivered once (0 lost, 0 duplicated), customers' counters equal to a
// recount, idempotent retries answered with the first session. Seeded: FAULTS_SEED replays a run;
// FAULTS_SIZE=full (pnpm test:faults) is the large run, the default a CI-sized one. docs/reliability.md.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { withDatabase } from '@hc/db';
import { eventually, startDisposableNats, startDisposablePostgres, type DisposableNats, type DisposablePostgres } from '@hc/test-kit';
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
import { startWebhookReceiver, type WebhookReceiver } from '../faults/webhook-receiver.ts';
import {
  killLeftovers,
  launchPlatform,
  platformSetting,
  stopPlatform,
  type RunningPlatform,
} from '../../scripts/tests/platform-process.ts';

const repository = join(import.meta.dirname, '..', '..');
const OPERATOR = join(repository, 'services/gateway/src/cli/operator.ts');
const FULL = process.env['FAULTS_SIZE'] === 'full';
const SIZE = FULL ? { payments: 600, concurrency: 8, rounds: 3 } : { payments: 80, concurrency: 4, rounds: 1 };
const SEED = Number(process.env['FAULTS_SEED'] ?? 20261123);
const EMAILS = ['ana@example.com', 'bo@example.com', 'cy@example.com', 'di@example.com', 'ed@example.com'];
const run = promisify(execFile);

let postgres: DisposablePostgres;
let nats: DisposableNats;
let receiver: WebhookReceiver;
let platform: RunningPlatform;
let env: NodeJS.ProcessEnv;
let home: string;
/** The platform's logs are kept (and their folder printed) unless the run passed. */
let passed = false;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'hc-faults-'));
  [postgres, nats, receiver] = await Promise.all([startDisposablePostgres(), startDisposableNats(), startWebhookReceiver()]);
  const setting = await platformSetting('faults');
  // The platform's own databases and NATS, on the suite's disposable servers.
  const ownDatabases = Object.fromEntries(
    Object.entries(setting.env)
      .filter(([name]) => name.endsWith('_DATABASE_URL'))
      .map(([name, url]) => [name, withDatabase(postgres.url, new URL(url).pathname.slice(1))]),
  );
  env = {
    ...process.env,
    ...setting.env,
    ...ownDatabases,
    NATS_URL: nats.url,
    PLATFORM_HOME: home,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
    RATE_LIMIT_STARTS_PER_MINUTE: '1000000',
    // Redeliveries soon after a failure, so the suite does not wait on production back-off.
    WEBHOOKS_RETRY_SCHEDULE: '0s,200ms,500ms,1s,2s,3s,5s,5s,5s,5s',
    WEBHOOKS_POLL_INTERVAL: '100ms',
    WEBHOOKS_DELIVERY_TIMEOUT: '5s',
  };
  platform = await launchPlatform(process.execPath, [join(repository, 'scripts', 'platform.ts')], {
    cwd: repository,
    env,
    timeoutMs: 120_000,
  }).ready;
  const added = await run(
    process.execPath,
    [OPERATOR, 'webhooks', 'endpoints', 'add', platform.printed['DEMO_ACCOUNT_ID']!, '--mode', 'test', '--url', receiver.url, '--json'],
    { env },
  );
  receiver.useSecret(String((JSON.parse(added.stdout) as { secret: string }).secret));
}, 180_000);

afterAll(async () => {
  if (platform) await stopPlatform(platform);
  killLeftovers();
  await receiver?.stop();
  await nats?.stop();
  await postgres?.stop();
  if (passed) rmSync(home, { recursive: true, force: true });
  else if (home) process.stdout.write(`fault suite: the platform's logs are kept in ${join(home, '.platform', 'logs')}\n`);
});

const gateway = (): string => String(platform.printed['GATEWAY_URL']);
const key = (): string => String(platform.printed['TEST_SECRET_KEY']);

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
    const marker = platform.stderr().length;

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
      injected.push(await inject(fault, { stderr: () => platform.stderr(), nats, postgres, recovered }));
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
      async () => checkWebhooks(done, receiver.deliveries).lost,
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
      ...checkWebhooks(done, receiver.deliveries),
      wrongCustomers,
      idempotencyBroken: checkIdempotency(done),
    };
    const unplannedRestarts = [
      ...platform
        .stderr()
        .slice(marker)
        .matchAll(/(\w+) exited unexpectedly \(([^)]*)\)/g),
    ].filter(([, , how]) => how !== 'SIGKILL');

    const report = [
      `fault suite, seed ${SEED} (${FULL ? 'full' : 'CI'} size): ${payments.length} payments, ${done.length} completed, ${loadSeconds.toFixed(1)} s of load`,
      `faults: ${injected.length} (${injected.filter((f) => f.fault.kind === 'kill').length} kills, ${injected.filter((f) => f.fault.kind === 'nats').length} NATS, ${injected.filter((f) => f.fault.kind === 'postgres').length} PostgreSQL)`,
      ...injected.map((f) => `  ${describeFault(f.fault).padEnd(40)} recovered in ${f.recoveryMs} ms`),
      `client retries: ${payments.reduce((n, p) => n + p.retries, 0)}; webhook deliveries: ${receiver.deliveries.length}; unsigned or forged: ${receiver.forged}`,
      `lost: ${findings.lost.length}; duplicated: ${findings.duplicated.length}; unexpected events: ${findings.unexpected.length}; wrong status: ${findings.wrongStatus.length}; wrong customers: ${wrongCustomers.length}; idempotency broken: ${findings.idempotencyBroken.length}`,
      ...Object.entries(findings)
        .filter(([, list]) => list.length > 0)
        .map(([name, list]) => `  ${name}: ${list.slice(0, 5).join(' | ')}`),
      `processes that died without being killed: ${unplannedRestarts.map(([, name, how]) => `${name} (${how})`).join(', ') || 'none'}`,
    ].join('\n');
    process.stdout.write(`\n${report}\n`);

    expect(loadFailures).toEqual([]);
    expect(noFindings(findings) ? 'nothing lost or doubled' : findings).toBe('nothing lost or doubled');
    expect(receiver.forged).toBe(0);
    // Services ride out NATS and PostgreSQL going away (reconnecting) instead of crashing into a restart.
    expect(unplannedRestarts.map(([line]) => line)).toEqual([]);
    passed = true;
  },
  FULL ? 1_800_000 : 600_000,
);
