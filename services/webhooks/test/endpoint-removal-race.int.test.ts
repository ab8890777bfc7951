// Risk covered: a delivery queued for an endpoint at the moment the merchant disables or deletes it.
// The removal cancels the endpoint's open deliveries; a delivery committed just after that cancel
// (its event fanned out on the endpoint as it was read a moment before) would stay pending for good,
// shown as pending in the event's log, and sent if the endpoint were enabled again. Fan-out and
// removal must serialize: a fan-out still open makes the removal wait and then be cancelled by it,
// and a removal that committed first makes the fan-out skip the endpoint. Real PostgreSQL, separate
// connections, transactions held open to force each order.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { secretBoxFromEnv } from '@hc/secrets';
import { createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, type TestDatabase } from '@hc/test-kit';
import { WEBHOOKS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { disableEndpoint, EndpointStore } from '../src/store/endpoints.ts';
import { EventStore, queueDeliveries } from '../src/store/events.ts';
import { createWebhooksPrisma, type WebhooksPrisma } from '../src/store/prisma.ts';
import { heldTransaction, insertEndpoint } from './support/store-rows.ts';

let db: TestDatabase;
let fanOut: WebhooksPrisma;
let removal: WebhooksPrisma;
let endpoints: EndpointStore;
let events: EventStore;
let serial = 0;

const now = new Date('2026-11-28T12:00:00.000Z');
/** Long enough for a removal that does not wait to have finished on a loaded machine. */
const HELD_MS = 400;

beforeAll(async () => {
  db = await createTestDatabase('webhooks-removal-race', WEBHOOKS_MIGRATIONS_DIR);
  fanOut = createWebhooksPrisma(db.url);
  removal = createWebhooksPrisma(db.url);
  endpoints = new EndpointStore(removal, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS));
  events = new EventStore(fanOut);
});
afterAll(async () => {
  await Promise.all([fanOut?.$disconnect(), removal?.$disconnect()]);
  await db?.drop();
});

/** An enabled endpoint and one event of its account, both new. */
async function endpointAndEvent(): Promise<{ endpointId: string; eventId: string }> {
  serial += 1;
  const endpointId = `we_removal_${serial}`;
  const eventId = `evt_removal_${serial}`;
  await insertEndpoint(fanOut, endpointId, { accountId: 'acct_removal', livemode: false }, now);
  await fanOut.webhookEvent.create({
    data: { id: eventId, accountId: 'acct_removal', livemode: false, type: 'payment.paid', created: now, body: {}, createdAt: now },
  });
  return { endpointId, eventId };
}

const openDeliveries = (endpointId: string) =>
  fanOut.webhookDelivery.count({ where: { endpointId, status: { in: ['pending', 'delivering'] } } });

/** Whether `promise` is still unsettled after HELD_MS. */
async function stillWaiting(promise: Promise<unknown>): Promise<boolean> {
  const timer = new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), HELD_MS));
  return (await Promise.race([promise.then(() => 'done' as const), timer])) === 'waiting';
}

const removals = {
  disable: (endpointId: string) => endpoints.setStatus(endpointId, 'disabled', now),
  delete: (endpointId: string) => endpoints.softDelete(endpointId, now),
} as const;

describe.each(Object.keys(removals) as (keyof typeof removals)[])('%s during a fan-out', (kind) => {
  it('waits for a fan-out that has queued a delivery, then cancels it', async () => {
    const { endpointId, eventId } = await endpointAndEvent();
    const fan = await heldTransaction(fanOut, (tx) => queueDeliveries(tx, eventId, [endpointId], now));
    const removed = removals[kind](endpointId);
    expect(await stillWaiting(removed)).toBe(true);
    fan.commit();
    expect(await fan.finished).toEqual([endpointId]);
    await removed;
    expect(await openDeliveries(endpointId)).toBe(0);
    expect(await fanOut.webhookDelivery.findMany({ where: { endpointId }, select: { status: true } })).toEqual([{ status: 'canceled' }]);
  });

  it('makes a fan-out that read the endpoint before it skip the endpoint once it has committed', async () => {
    const { endpointId, eventId } = await endpointAndEvent();
    await removals[kind](endpointId);
    // The fan-out read the endpoint as enabled before the removal; its insert comes after.
    expect(await events.resend(eventId, [endpointId], now)).toEqual([]);
    expect(await fanOut.webhookDelivery.count({ where: { endpointId } })).toBe(0);
  });
});

it('records no ping for an endpoint disabled after the ping checked it', async () => {
  const { endpointId } = await endpointAndEvent();
  await removals.disable(endpointId);
  const body = { id: `evt_ping_${serial}`, type: 'ping', created: 0, livemode: false, data: { payment: null } } as const;
  expect(await events.recordPing({ accountId: 'acct_removal', livemode: false }, endpointId, body, now, null)).toBeNull();
  expect(await fanOut.webhookEvent.count({ where: { id: body.id } })).toBe(0);
  expect(await fanOut.webhookDelivery.count({ where: { endpointId } })).toBe(0);
});

it('holds back a fan-out while a disable is uncommitted, which then queues nothing', async () => {
  const { endpointId, eventId } = await endpointAndEvent();
  const disabling = await heldTransaction(removal, (tx) => disableEndpoint(tx, endpointId, 'operator', now));
  const fan = events.resend(eventId, [endpointId], now);
  expect(await stillWaiting(fan)).toBe(true);
  disabling.commit();
  await disabling.finished;
  expect(await fan).toEqual([]);
  expect(await fanOut.webhookDelivery.count({ where: { endpointId } })).toBe(0);
});

it('leaves no open delivery on a removed endpoint however fan-outs and the removal interleave', async () => {
  for (let round = 0; round < 30; round += 1) {
    const { endpointId, eventId } = await endpointAndEvent();
    const kind = round % 2 === 0 ? 'disable' : 'delete';
    const [queued] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => events.resend(eventId, [endpointId], now))),
      removals[kind](endpointId),
    ]);
    expect({ round, open: await openDeliveries(endpointId) }).toEqual({ round, open: 0 });
    // Every delivery a fan-out reports queued exists (cancelled); the rest were skipped.
    const made = await fanOut.webhookDelivery.count({ where: { endpointId } });
    expect(made).toBe(queued.flat().length);
  }
});
