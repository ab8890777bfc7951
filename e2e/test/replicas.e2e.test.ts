// Risk covered: "two of everything loses and doubles nothing" (issue 46, first step). The real supervised
// platform (tools/platform/src/platform.ts) with PLATFORM_REPLICAS: a second copy of every service that runs
// background work (checkout's outbox relay and expiry sweeper, settlement's relay and chain checker,
// customers' consumers, webhooks' consumers and delivery workers on one endpoint, notifications' mail
// sender) on ONE PostgreSQL and ONE NATS. Under a steady load of Test payments (create → start →
// simulate, webhooks to a signed receiver, receipts to the mail catcher) and a batch of payments made due
// for expiry (both sweepers racing every 200 ms), every copy is SIGKILLed in turn. Then: every payment
// answered 201 reads its final status; every webhook event delivered exactly once (by event id); one event
// per payment and transition (one payment.expired per expired payment); no mail sent twice (by its
// stable Message-ID). One summary line with every count. docs/replicas.md.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { eventually } from '@hc/test-kit';
import { startDisposablePlatform, unplannedDeaths, type DisposablePlatform } from '../faults/disposable-platform.ts';
import { inject, type InjectedFault } from '../faults/fault-injector.ts';
import { countMails, waitForReceipts } from '../faults/mail-checks.ts';
import { checkStatuses } from '../faults/outcome-checks.ts';
import { FINAL_EVENT, planPayments, runLoad, type DrivenPayment } from '../faults/payment-load.ts';
import type { ReceivedEvent } from '../faults/webhook-receiver.ts';

/** The services whose background work runs in every replica; each gets a second copy (NAME-2). */
const REPLICATED = ['checkout', 'settlement', 'customers', 'webhooks', 'notifications', 'accounts'] as const;
const COPIES = REPLICATED.flatMap((name) => [name, `${name}-2`]);
const SEED = Number(process.env['REPLICAS_SEED'] ?? 20261129);
const PAYMENTS = 100;
const EXPIRING = 30;
const EMAILS = ['ana@example.com', 'bo@example.com', 'cy@example.com'];

let setup: DisposablePlatform;
let passed = false;

beforeAll(async () => {
  setup = await startDisposablePlatform('replicas', {
    PLATFORM_REPLICAS: REPLICATED.join(','),
    // Both sweepers pass often, so they race on the same due payments.
    EXPIRY_SWEEP_INTERVAL_MS: '200',
    // Every paid payment gets its Test receipt (the default cap, 20 an hour per account, would cancel most).
    TEST_RECEIPTS_PER_ACCOUNT_HOUR: '10000',
    // Fifteen processes start at once: on a loaded 2-core machine 60 s (the default) was once not enough.
    PLATFORM_READY_TIMEOUT_S: '110',
  });
}, 180_000);

afterAll(async () => {
  await setup?.stop(!passed);
  if (setup && !passed) process.stdout.write(`replicas: the platform's logs are kept in ${setup.logs}\n`);
});

async function api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const response = await fetch(`${setup.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${setup.key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
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
      (await fetch(`${setup.gatewayUrl}/readyz`).catch(() => null))?.status === 200 &&
      (await api('GET', '/v1/payments?limit=1')).status === 200,
    (ok) => ok,
    90_000,
  );
}

/** Payments left to expire: created (half of them started), then made due in the database. */
async function createExpiring(): Promise<{ id: string; started: boolean }[]> {
  const made: { id: string; started: boolean }[] = [];
  for (let i = 0; i < EXPIRING; i += 1) {
    const created = await eventually(
      () =>
        api('POST', '/v1/checkout_sessions', {
          amount: '5.00',
          currency: 'USD',
          description: 'Replicas expiry',
          customer_email: EMAILS[i % EMAILS.length],
        }),
      (answer) => answer.status === 201,
      30_000,
    );
    if (created.status !== 201) throw new Error(`create answered ${created.status} ${JSON.stringify(created.body)}`);
    const id = String(created.body['id']);
    const started = i % 2 === 0;
    if (started) {
      const start = await eventually(
        () => api('POST', `/v1/checkout_sessions/${id}/start`, {}),
        (answer) => answer.status === 200,
        30_000,
      );
      if (start.status !== 200) throw new Error(`start answered ${start.status} ${JSON.stringify(start.body)}`);
    }
    made.push({ id, started });
  }
  return made;
}

it(`two copies of every background worker on one PostgreSQL and one NATS, each killed in turn under load, lose and double nothing (seed ${SEED})`, async () => {
  const rng = xoroshiro128plus(SEED);
  const load = {
    gatewayUrl: setup.gatewayUrl,
    key: setup.key,
    payments: PAYMENTS,
    concurrency: 4,
    emails: EMAILS,
    rng,
    stepDeadlineMs: 90_000,
  };
  const payments = planPayments({ ...load, label: `replicas-${SEED}` });
  const expiring = await createExpiring();
  const marker = setup.platform.stderr().length;
  const began = Date.now();
  const running = runLoad({ ...load, label: '' }, payments);

  // Midway: the expiring payments become due (both checkout sweepers race for them), and every copy is killed in turn.
  const injected: InjectedFault[] = [];
  const checkoutDb = new pg.Client({ connectionString: setup.env['CHECKOUT_DATABASE_URL'] });
  await checkoutDb.connect();
  try {
    for (const [i, name] of COPIES.entries()) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      if (i === 1)
        await checkoutDb.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = ANY($1::text[])`, [
          expiring.map((p) => p.id),
        ]);
      injected.push(
        await inject(
          { kind: 'kill', processes: [name] },
          { stderr: () => setup.platform.stderr(), nats: setup.nats, postgres: setup.postgres, recovered },
        ),
      );
    }
  } finally {
    await checkoutDb.end();
  }
  const loadFailures = await running;
  const loadSeconds = (Date.now() - began) / 1000;

  // Settled: every payment final (the expiring ones expired), every expected webhook in.
  const done = payments.filter((p) => p.done);
  const statuses = new Map<string, string>();
  const wrongStatus = await eventually(
    async () => {
      for (const p of [...done.map((d) => d.id!), ...expiring.map((e) => e.id)].filter(
        (id) => !['paid', 'held', 'failed', 'expired'].includes(statuses.get(id) ?? ''),
      )) {
        const read = await api('GET', `/v1/payments/${p}`);
        if (read.status === 200) statuses.set(p, String(read.body['status']));
      }
      return [
        ...checkStatuses(done, statuses),
        ...expiring.filter((e) => statuses.get(e.id) !== 'expired').map((e) => `${e.id}: ${statuses.get(e.id)} (expected expired)`),
      ];
    },
    (wrong) => wrong.length === 0,
    60_000,
  );
  const expected = new Set<string>([
    ...done.flatMap((p: DrivenPayment) => [`${p.id} payment.started`, `${p.id} ${FINAL_EVENT[p.outcome]}`]),
    ...expiring.flatMap((e) => [...(e.started ? [`${e.id} payment.started`] : []), `${e.id} payment.expired`]),
  ]);
  const webhooksKills = injected.filter((f) => f.fault.kind === 'kill' && f.fault.processes[0]!.startsWith('webhooks')).map((f) => f.at);
  const webhooks = () => countWebhooks(setup.receiver.deliveries, expected, webhooksKills);
  await eventually(
    async () => webhooks().lost,
    (lost) => lost.length === 0,
    90_000,
  );
  const paid = done.filter((p) => p.outcome === 'paid').length;
  const held = done.filter((p) => p.outcome === 'underpaid').length;
  const mailUrl = String(setup.platform.printed['MAIL_CATCHER_URL']);
  await waitForReceipts(mailUrl, paid, 60_000);
  // Time for a duplicate delivery, event or mail to show up, if one were on its way (leases are 10 s here).
  await new Promise((resolve) => setTimeout(resolve, 12_000));

  const found = webhooks();
  const mails = await countMails(mailUrl);
  const { receipts, sentTwice: duplicatedMails } = mails;
  const deaths = unplannedDeaths(setup.platform.stderr().slice(marker));

  const problems = [
    found.lost,
    found.unexpected,
    found.duplicatedEvents,
    found.unexplainedDuplicates,
    duplicatedMails,
    wrongStatus,
    loadFailures,
    deaths,
  ];
  const verdict = problems.every((list) => list.length === 0) && receipts === paid && setup.receiver.forged === 0 ? 'PASSED' : 'FAILED';
  const summary =
    `replicas ${verdict} ` +
    `(seed ${SEED}): 2 copies of ${REPLICATED.join(', ')}; ${injected.length} SIGKILLs [${injected.map((f) => (f.fault.kind === 'kill' ? f.fault.processes.join('') : '')).join(', ')}]; ` +
    `${payments.length} payments driven, ${done.length} completed, ${loadFailures.length} load failures, ${expiring.length} expired by the sweepers, ${loadSeconds.toFixed(1)} s of load; ` +
    `${wrongStatus.length} wrong status; webhooks: ${setup.receiver.deliveries.length} deliveries, ${found.events} events, ${found.lost.length} lost, ` +
    `${found.duplicatedDeliveries.length} delivered twice (same event id; ${found.unexplainedDuplicates.length} not after a kill of a webhooks copy), ${found.duplicatedEvents.length} transitions with two events (e.g. two payment.expired), ${found.unexpected.length} unexpected, ${setup.receiver.forged} forged; ` +
    `mails: ${mails.sent} sent (${receipts} receipts for ${paid} paid, ${mails.sent - receipts} others for ${held} held), ${duplicatedMails.length} sent twice; ${deaths.length} unplanned deaths`;
  process.stdout.write(
    `\n${summary}\n${[...Object.entries({ ...found, duplicatedMails, wrongStatus, loadFailures, deaths })]
      .filter(([, v]) => Array.isArray(v) && v.length > 0)
      .map(([name, list]) => `  ${name}: ${(list as string[]).slice(0, 5).join(' | ')}`)
      .join('\n')}\n`,
  );

  expect(loadFailures).toEqual([]);
  expect(wrongStatus).toEqual([]);
  expect({ lost: found.lost, unexpected: found.unexpected, duplicatedEvents: found.duplicatedEvents }).toEqual({
    lost: [],
    unexpected: [],
    duplicatedEvents: [],
  });
  // Deliveries are at least once (docs/webhooks.md): a copy killed after the receiver's 200 and before it
  // recorded the success leaves the delivery leased; another copy sends it again once the lease runs out.
  // Any other second delivery (two copies sending one delivery at once) is a defect.
  expect(found.unexplainedDuplicates).toEqual([]);
  expect(setup.receiver.forged).toBe(0);
  expect(duplicatedMails).toEqual([]);
  expect(receipts).toBe(paid);
  expect(deaths).toEqual([]);
  passed = true;
}, 600_000);

interface WebhookCounts {
  /** Distinct event ids received. */
  events: number;
  lost: string[];
  /** One payment and transition with more than one event id: the transition ran twice. */
  duplicatedEvents: string[];
  /** One event id delivered more than once to the one endpoint. */
  duplicatedDeliveries: string[];
  /** Duplicated deliveries with no kill of a webhooks copy between the first and the last arrival. */
  unexplainedDuplicates: string[];
  unexpected: string[];
}

function countWebhooks(
  deliveries: readonly ReceivedEvent[],
  expected: ReadonlySet<string>,
  webhooksKills: readonly number[],
): WebhookCounts {
  const idsByTransition = new Map<string, Set<string>>();
  const arrivals = new Map<string, number[]>();
  for (const d of deliveries) {
    arrivals.set(d.id, [...(arrivals.get(d.id) ?? []), d.at]);
    if (!d.paymentId) continue;
    const key = `${d.paymentId} ${d.type}`;
    idsByTransition.set(key, (idsByTransition.get(key) ?? new Set()).add(d.id));
  }
  const duplicated = [...arrivals].filter(([, at]) => at.length > 1);
  const described = ([id, at]: [string, number[]]): string => `${id} ×${at.length} (${at.map((t) => t - at[0]!).join(', ')} ms)`;
  return {
    events: arrivals.size,
    lost: [...expected].filter((key) => !idsByTransition.has(key)),
    duplicatedEvents: [...idsByTransition].filter(([, ids]) => ids.size > 1).map(([key, ids]) => `${key}: ${[...ids].join(', ')}`),
    duplicatedDeliveries: duplicated.map(described),
    unexplainedDuplicates: duplicated
      .filter(([, at]) => !webhooksKills.some((kill) => kill >= at[0]! - 1_000 && kill <= at.at(-1)!))
      .map(described),
    unexpected: [...idsByTransition.keys()].filter((key) => !expected.has(key)),
  };
}
