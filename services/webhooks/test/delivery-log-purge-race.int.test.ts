// Risk covered: the delivery log's purge and a merchant's resend of an old event meeting. A resend
// answered "queued" whose delivery the purge then deletes is a webhook the merchant was promised and
// never gets; a resend that meets the purge's delete must answer not_found, never fail on the foreign
// key (a 500). Real PostgreSQL, the real purge and resend on separate connections; a held lock or a
// long scan forces each order.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { WEBHOOKS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { DeliveryLogRetention } from '../src/store/delivery-log-retention.ts';
import { EventStore } from '../src/store/events.ts';
import { createWebhooksPrisma, type WebhooksPrisma } from '../src/store/prisma.ts';
import { heldTransaction, insertEndpoint } from './support/store-rows.ts';

const DAY = 86_400_000;
const scope = { accountId: 'acct_purge_race', livemode: false };
const endpointId = 'we_purge_race';
/** Old events still being delivered, scanned (and kept) by every purge before the event under test. */
const BACKLOG = 20_000;

let db: TestDatabase;
let purging: WebhooksPrisma;
let resending: WebhooksPrisma;
let events: EventStore;
let serial = 0;

beforeAll(async () => {
  db = await createTestDatabase('webhooks-purge-race', WEBHOOKS_MIGRATIONS_DIR);
  purging = createWebhooksPrisma(db.url);
  resending = createWebhooksPrisma(db.url);
  events = new EventStore(resending);
  const longAgo = new Date(Date.now() - 40 * DAY);
  await insertEndpoint(purging, endpointId, scope, longAgo);
  await purging.$executeRaw`
    INSERT INTO webhook_events (id, account_id, livemode, type, created, body, created_at)
    SELECT 'evt_backlog_' || n, ${scope.accountId}, false, 'payment.paid', ${longAgo}, '{}', ${longAgo}
      FROM generate_series(1, ${BACKLOG}) AS n`;
  await purging.$executeRaw`
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at)
    SELECT 'wd_backlog_' || n, 'evt_backlog_' || n, ${endpointId}, 'pending', now() + interval '1 day', ${longAgo}
      FROM generate_series(1, ${BACKLOG}) AS n`;
  await purging.$executeRaw`ANALYZE`;
  // Each client's connections opened before the tests: the purge, the resend and a holder each start a
  // transaction within Prisma's 2 s maxWait, which on a loaded CI machine (30 Nov) opening a fresh
  // connection to the container once took longer than (the resend's own code keeps that fail-fast wait).
  await Promise.all([
    ...Array.from({ length: 3 }, () => purging.$queryRaw`SELECT 1 AS one FROM pg_sleep(0.05)`),
    resending.$queryRaw`SELECT 1`,
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([purging?.$disconnect(), resending?.$disconnect()]);
  await db?.drop();
});

/** An event older than the log window whose one delivery succeeded: the purge's to take. */
async function oldDeliveredEvent(): Promise<string> {
  serial += 1;
  const eventId = `evt_purge_race_${serial}`;
  const createdAt = new Date(Date.now() - 31 * DAY);
  await purging.webhookEvent.create({
    data: { id: eventId, ...scope, type: 'payment.paid', created: createdAt, body: {}, createdAt },
  });
  await purging.webhookDelivery.create({
    data: {
      id: `wd_purge_race_${serial}`,
      eventId,
      endpointId,
      status: 'succeeded',
      attemptCount: 1,
      nextAttemptAt: createdAt,
      createdAt,
      completedAt: createdAt,
    },
  });
  return eventId;
}

const purge = () => new DeliveryLogRetention(purging).purge(30 * DAY);
const openDeliveries = (eventId: string) =>
  purging.webhookDelivery.count({ where: { eventId, status: { in: ['pending', 'delivering'] } } });
const eventExists = async (eventId: string) => (await purging.webhookEvent.count({ where: { id: eventId } })) === 1;

it('a resend that waits for the purge deleting its event answers that the event is gone', async () => {
  const eventId = await oldDeliveredEvent();
  // Something holds the event's delivery (as a worker's claim would): the purge locks the event,
  // deletes its attempts, and then waits to delete the delivery; the resend arrives meanwhile.
  const holder = await heldTransaction(
    purging,
    (tx) => tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE event_id = ${eventId} FOR UPDATE`,
  );
  const purged = purge();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const resent = events.resend(eventId, [endpointId], new Date());
  await new Promise((resolve) => setTimeout(resolve, 300));
  holder.commit();
  await holder.finished;
  expect(await purged).toBe(1);
  expect(await resent).toBeNull(); // not a foreign-key failure: resendEvent answers not_found
  expect(await eventExists(eventId)).toBe(false);
});

it('leaves an event being resent for a later purge', async () => {
  const eventId = await oldDeliveredEvent();
  // The resend's first step, held: the event FOR KEY SHARE.
  const resend = await heldTransaction(resending, (tx) => tx.$queryRaw`SELECT id FROM webhook_events WHERE id = ${eventId} FOR KEY SHARE`);
  expect(await purge()).toBe(0);
  resend.commit();
  await resend.finished;
  expect(await purge()).toBe(1);
});

it('never deletes a delivery a resend reported queued, however the two interleave', async () => {
  // The purge's first statement scans the backlog before it reaches the event: a resend that commits
  // during that scan is invisible to the statement's snapshot, and only its re-check can see it.
  for (let round = 0; round < 12; round += 1) {
    const eventId = await oldDeliveredEvent();
    const purged = purge();
    await new Promise((resolve) => setTimeout(resolve, round * 2));
    const queued = await events.resend(eventId, [endpointId], new Date());
    const removed = await purged;
    if (queued === null) {
      expect({ round, removed, exists: await eventExists(eventId) }).toEqual({ round, removed: 1, exists: false });
    } else {
      expect(queued).toEqual([endpointId]);
      expect({ round, removed, open: await openDeliveries(eventId) }).toEqual({ round, removed: 0, open: 1 });
    }
  }
});
