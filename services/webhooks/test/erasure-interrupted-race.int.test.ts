// Risk covered: a buyer's email kept in the delivery log after their erasure. A worker that died mid-
// send leaves its delivery "delivering"; the next claim logs the lost attempt as interrupted, copying
// the event's body. If the claim read the body before an erasure committed and wrote its log entry
// after the erasure's scrub, the entry kept the details for the log's whole retention. Real
// PostgreSQL; a lock held by the test stalls the claim between its read and its write, so the
// erasure runs exactly in that window.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { unixSeconds } from '@hc/conversions';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { WEBHOOKS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { DeliveryStore, INTERRUPTED_ERROR } from '../src/store/deliveries.ts';
import { ErasureStore } from '../src/store/erasures.ts';
import { createWebhooksPrisma, type WebhooksPrisma } from '../src/store/prisma.ts';
import { heldTransaction, insertEndpoint } from './support/store-rows.ts';

let db: TestDatabase;
let claimer: WebhooksPrisma;
let eraser: WebhooksPrisma;
let holder: WebhooksPrisma;

const now = new Date('2026-11-28T12:00:00.000Z');
const scope = { accountId: 'acct_erase_race', livemode: false };
const EMAIL = 'erased-buyer@buyer.example';
/** Long enough for an erasure that does not wait to have committed on a loaded machine. */
const HELD_MS = 500;

beforeAll(async () => {
  db = await createTestDatabase('webhooks-erasure-race', WEBHOOKS_MIGRATIONS_DIR);
  [claimer, eraser, holder] = [createWebhooksPrisma(db.url), createWebhooksPrisma(db.url), createWebhooksPrisma(db.url)];
});
afterAll(async () => {
  await Promise.all([claimer, eraser, holder].map((client) => client?.$disconnect()));
  await db?.drop();
});

/** A payment event with the buyer's details, and its delivery left "delivering" by a dead worker. */
async function interruptedDelivery(): Promise<{ deliveryId: string; paymentId: string }> {
  const paymentId = 'pay_erase_race';
  const body = {
    id: 'evt_erase_race',
    type: 'payment.paid',
    created: unixSeconds(now),
    livemode: false,
    data: { payment: { id: paymentId, customerEmail: EMAIL, customerName: 'Erased Buyer' } },
  };
  await insertEndpoint(claimer, 'we_erase_race', scope, now);
  await claimer.webhookEvent.create({
    data: { id: body.id, ...scope, type: body.type, paymentId, created: now, body, createdAt: now },
  });
  await claimer.webhookDelivery.create({
    data: {
      id: 'wd_erase_race',
      eventId: body.id,
      endpointId: 'we_erase_race',
      status: 'delivering',
      attemptCount: 1,
      nextAttemptAt: now,
      leaseExpiresAt: new Date(now.getTime() - 1_000),
      createdAt: now,
    },
  });
  return { deliveryId: 'wd_erase_race', paymentId };
}

it('scrubs the interrupted attempt a claim logs while the erasure runs', async () => {
  const { deliveryId, paymentId } = await interruptedDelivery();
  // The test holds the attempts table (SHARE) so the claim stops after reading the event's body,
  // just before it writes the interrupted attempt.
  const holding = await heldTransaction(holder, (tx) => tx.$executeRaw`LOCK TABLE delivery_attempts IN SHARE MODE`);
  const claim = new DeliveryStore(claimer).claimDue(now, 10, { healthy: 10, failing: 10 }, 60_000);
  await new Promise((resolve) => setTimeout(resolve, HELD_MS));
  const erasure = new ErasureStore(eraser).erase('customers-erased', 'msg_erase_race', scope, [paymentId], now);
  await new Promise((resolve) => setTimeout(resolve, HELD_MS));
  holding.commit();
  await holding.finished;
  const claimed = await claim;
  expect(await erasure).toBe(1);

  expect(claimed.map((d) => d.deliveryId)).toEqual([deliveryId]);
  const attempts = await claimer.deliveryAttempt.findMany({ where: { deliveryId } });
  expect(attempts.map((a) => a.error)).toEqual([INTERRUPTED_ERROR]);
  expect(attempts[0]!.requestBody).not.toContain(EMAIL);
  expect(JSON.parse(attempts[0]!.requestBody)).toMatchObject({
    data: { payment: { id: paymentId, customerEmail: null, customerName: null } },
  });
});
