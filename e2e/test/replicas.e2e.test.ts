// Risk covered: "two of everything loses and doubles nothing" (issue 46, first step). The real supervised
// platform (tools/platform/src/platform.ts) with PLATFORM_REPLICAS: a second copy of every service that runs
// background work (checkout's outbox relay and expiry sweeper, settlement's relay and chain checker,
// customers' consumers, webhooks' consumers and delivery workers on one endpoint, notifications' mail
// sender) on ONE PostgreSQL and ONE NATS. Under a steady load of Test payments (create → start →
// simulate, webhooks to a signed receiver, receipts to the mail catcher) and a batch of payments made due
// for expiry (both sweepers racing every 200 ms), every copy is SIGKILLed in turn. Then: every payment
// answered 201 reads its final status; every webhook event delivered, twice only where a kill or a failed
// attempt explains it (by event id); one event per payment and transition (one payment.expired per expired payment); no mail sent twice (by its
// stable Message-ID) except across a kill of its sender between the server's 250 and the record. One summary line with every count. docs/replicas.md.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import {
  RACING_SWEEPERS,
  startDisposablePlatform,
  stopAfterRun,
  UNDER_LOAD,
  unplannedDeaths,
  type DisposablePlatform,
} from '../faults/disposable-platform.ts';
import { inject, type InjectedFault } from '../faults/fault-injector.ts';
import { mailSenderKilledAt } from '../faults/mail-checks.ts';
import { explainedBy } from '../faults/outcome-checks.ts';
import { killsOf, loggedAt, settleAndCount } from '../faults/settle.ts';
import { planPayments, runLoad } from '../faults/payment-load.ts';
import { createExpiring, expectedOutcomes, makeDue, platformApi, readFinalStatuses, type PlatformApi } from '../faults/platform-api.ts';

/** The services whose background work runs in every replica; each gets a second copy (NAME-2). */
const REPLICATED = ['checkout', 'settlement', 'customers', 'webhooks', 'notifications', 'accounts'] as const;
const COPIES = REPLICATED.flatMap((name) => [name, `${name}-2`]);
const SEED = Number(process.env['REPLICAS_SEED'] ?? 20261129);
const PAYMENTS = 100;
const EXPIRING = 30;
const EMAILS = ['ana@example.com', 'bo@example.com', 'cy@example.com'];
/** What a webhooks copy logs when it sent a delivery and could not record the outcome (services/webhooks/src/jobs/delivery-worker.ts). */
const UNRECORDED_ATTEMPT = 'delivery worker: attempt could not be completed';

let setup: DisposablePlatform;
let api: PlatformApi;
let passed = false;

beforeAll(async () => {
  setup = await startDisposablePlatform('replicas', {
    PLATFORM_REPLICAS: REPLICATED.join(','),
    ...RACING_SWEEPERS,
    ...UNDER_LOAD,
    // Fifteen processes start at once: on a loaded 2-core machine 60 s (the default) was once not enough.
    PLATFORM_READY_TIMEOUT_S: '110',
  });
  api = platformApi(setup.gatewayUrl, setup.key);
}, 180_000);

afterAll(() => stopAfterRun('replicas', setup, passed));

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
  const expiring = await createExpiring(api, EXPIRING, EMAILS);
  const marker = setup.platform.stderr().length;
  const began = Date.now();
  const running = runLoad({ ...load, label: '' }, payments);

  // Midway: the expiring payments become due (both checkout sweepers race for them), and every copy is killed in turn.
  const injected: InjectedFault[] = [];
  for (const [i, name] of COPIES.entries()) {
    await new Promise((resolve) => setTimeout(resolve, 700));
    if (i === 1) await makeDue(setup.env['CHECKOUT_DATABASE_URL']!, expiring);
    injected.push(
      await inject({ kind: 'kill', processes: [name] }, { stderr: () => setup.platform.stderr(), recovered: () => api.recovered() }),
    );
  }
  const loadFailures = await running;
  const loadSeconds = (Date.now() - began) / 1000;

  // Settled: every payment final (the expiring ones expired), every expected webhook in.
  const done = payments.filter((p) => p.done);
  const outcomes = expectedOutcomes(done, expiring);
  const wrongStatus = await readFinalStatuses(api, outcomes.statuses, 60_000);
  const expected = outcomes.transitions;
  const paid = done.filter((p) => p.outcome === 'paid').length;
  const held = done.filter((p) => p.outcome === 'underpaid').length;
  // At least once, as faults-many counts it (docs/webhooks.md, docs/adr/0048): a second delivery of one event
  // id is explained by a kill of a webhooks copy or an attempt a copy logged as not recorded between its
  // arrivals, or by a failed attempt in webhooks' own attempt log (the receiver's 200 not seen within the
  // delivery timeout on a loaded machine: retried on schedule, as a CI rehearsal of 30 Nov saw 3.6 s apart);
  // a mail sent again only where a notifications copy was killed between the server's 250 and its record.
  // Two sends of one attempt, or a mail sent twice with no kill in that window, are none of these.
  const unrecorded = () => loggedAt(setup.logs, 'webhooks', UNRECORDED_ATTEMPT);
  const { webhooks: found, mails } = await settleAndCount({
    deliveries: setup.receiver.deliveries,
    expected,
    explained: (at) => explainedBy([...killsOf(injected, 'webhooks'), ...unrecorded()])(at),
    mailUrl: String(setup.platform.printed['MAIL_CATCHER_URL']),
    mailExplained: mailSenderKilledAt(killsOf(injected, 'notifications')),
    paid,
    held,
    webhooksDatabaseUrl: setup.env['WEBHOOKS_DATABASE_URL'],
  });
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
  const verdict =
    problems.every((list) => list.length === 0) && receipts === paid && mails.others === held && setup.receiver.forged === 0
      ? 'PASSED'
      : 'FAILED';
  const summary =
    `replicas ${verdict} ` +
    `(seed ${SEED}): 2 copies of ${REPLICATED.join(', ')}; ${injected.length} SIGKILLs [${injected.map((f) => (f.fault.kind === 'kill' ? f.fault.processes.join('') : '')).join(', ')}]; ` +
    `${payments.length} payments driven, ${done.length} completed, ${loadFailures.length} load failures, ${expiring.length} expired by the sweepers, ${loadSeconds.toFixed(1)} s of load; ` +
    `${wrongStatus.length} wrong status; webhooks: ${setup.receiver.deliveries.length} deliveries, ${found.events} events, ${found.lost.length} lost, ` +
    `${found.duplicatedDeliveries.length} delivered twice (same event id; ${found.unexplainedDuplicates.length} not after a kill of a webhooks copy), ${found.duplicatedEvents.length} transitions with two events (e.g. two payment.expired), ${found.unexpected.length} unexpected, ${setup.receiver.forged} forged; ` +
    `mails: ${mails.sent} sent (by Message-ID: ${receipts} receipts for ${paid} paid, ${mails.others} alerts for ${held} held), ${duplicatedMails.length} sent twice unexplained, ${mails.sentTwiceExplained.length} where its sender was killed between the server's 250 and the record (ADR 0048); ${deaths.length} unplanned deaths`;
  process.stdout.write(
    `\n${summary}\n${[
      ...Object.entries({ ...found, duplicatedMails, explainedMails: mails.sentTwiceExplained, wrongStatus, loadFailures, deaths }),
    ]
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
  // recorded the success leaves the delivery leased; another copy sends it again once the lease runs out;
  // an attempt recorded as failed is retried. Any other second delivery (two copies sending one delivery
  // at once) is a defect.
  expect(found.unexplainedDuplicates).toEqual([]);
  expect(setup.receiver.forged).toBe(0);
  expect(duplicatedMails).toEqual([]);
  expect(receipts).toBe(paid);
  expect(mails.others).toBe(held); // one "payment held" alert to the merchant per held payment
  expect(deaths).toEqual([]);
  passed = true;
}, 600_000);
