// Risk covered: one webhook sent twice because two delivery workers (two replicas) claimed it at the
// same moment. Under READ COMMITTED, a worker whose statement started before another worker's claim
// committed must not take the claimed delivery once its lock is free: the "is it due" test has to be
// re-checked on the row it locks (the locked row's own conditions are the only ones PostgreSQL
// re-checks). Real PostgreSQL; workers race on separate connections many times.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { WEBHOOKS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { DeliveryStore } from '../src/store/deliveries.ts';
import { createWebhooksPrisma, type WebhooksPrisma } from '../src/store/prisma.ts';

const WORKERS = 4;
let db: TestDatabase;
const clients: WebhooksPrisma[] = [];

beforeAll(async () => {
  db = await createTestDatabase('webhooks-claim-race', WEBHOOKS_MIGRATIONS_DIR);
  for (let i = 0; i < WORKERS; i += 1) clients.push(createWebhooksPrisma(db.url));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.$disconnect()));
  await db.drop();
});

const now = new Date('2026-11-28T12:00:00.000Z');

async function seed(prisma: WebhooksPrisma, round: number, deliveries: number): Promise<void> {
  const endpointId = `we_race_${round}`;
  await prisma.webhookEndpoint.create({
    data: {
      id: endpointId,
      accountId: 'acct_race',
      livemode: false,
      url: 'https://shop.example/hook',
      enabledEvents: ['*'],
      status: 'enabled',
      createdAt: now,
      updatedAt: now,
    },
  });
  for (let i = 0; i < deliveries; i += 1) {
    const eventId = `evt_race_${round}_${i}`;
    await prisma.webhookEvent.create({
      data: { id: eventId, accountId: 'acct_race', livemode: false, type: 'payment.paid', created: now, body: {}, createdAt: now },
    });
    await prisma.webhookDelivery.create({
      data: { id: `wd_race_${round}_${i}`, eventId, endpointId, status: 'pending', nextAttemptAt: now, createdAt: now },
    });
  }
}

it('each due delivery is taken by one worker only, however the workers’ claims interleave', async () => {
  const stores = clients.map((client) => new DeliveryStore(client));
  for (let round = 0; round < 40; round += 1) {
    await seed(clients[0]!, round, 12);
    // Every worker claims in a loop until nothing is due; a lease of an hour means nothing comes due again.
    const taken = await Promise.all(
      stores.map(async (store) => {
        const ids: string[] = [];
        for (;;) {
          const claimed = await store.claimDue(now, 2, 100, 3_600_000);
          if (claimed.length === 0) return ids;
          ids.push(...claimed.map((d) => d.deliveryId));
        }
      }),
    );
    const all = taken.flat();
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([]);
    expect(new Set(all).size).toBe(12);
  }
  const attempts = await clients[0]!.webhookDelivery.findMany({ where: { attemptCount: { not: 1 } }, select: { id: true } });
  expect(attempts).toEqual([]);
});
