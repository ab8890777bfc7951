// Risk covered: one webhook sent twice because two delivery workers (two replicas) claimed it at the
// same moment; a signing secret that never expires because two rotations ran at once; an endpoint
// answering 410 to several deliveries at once disabled (and its merchant alerted) more than once. Under READ COMMITTED, a worker whose statement started before another worker's claim
// committed must not take the claimed delivery once its lock is free: the "is it due" test has to be
// re-checked on the row it locks (the locked row's own conditions are the only ones PostgreSQL
// re-checks). Two rotations at once must leave one current secret, the other with its end set. Real
// PostgreSQL; callers race on separate connections many times.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { secretBoxFromEnv } from '@hc/secrets';
import { createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, type TestDatabase } from '@hc/test-kit';
import { WEBHOOKS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { DeliveryStore } from '../src/store/deliveries.ts';
import { EndpointStore } from '../src/store/endpoints.ts';
import { createWebhooksPrisma, type WebhooksPrisma } from '../src/store/prisma.ts';
import { insertEndpoint } from './support/store-rows.ts';

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
  await insertEndpoint(prisma, endpointId, { accountId: 'acct_race', livemode: false }, now);
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
          const claimed = await store.claimDue(now, 2, { healthy: 100, failing: 100 }, 3_600_000);
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

it('two secret rotations at once leave one current secret; every older one has its end', async () => {
  const stores = clients.slice(0, 2).map((client) => new EndpointStore(client, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS)));
  const ends = new Date(now.getTime() + 86_400_000);
  for (let round = 0; round < 20; round += 1) {
    const endpointId = `we_rotate_${round}`;
    await insertEndpoint(clients[0]!, endpointId, { accountId: 'acct_race', livemode: false }, now);
    await stores[0]!.rotateSecret(endpointId, `whsec_first_${round}`, now, ends);
    await Promise.all(stores.map((store, i) => store.rotateSecret(endpointId, `whsec_${i}_${round}`, now, ends)));
    const current = await clients[0]!.endpointSecret.count({ where: { endpointId, expiresAt: null } });
    expect({ round, current }).toEqual({ round, current: 1 });
  }
});

it('an endpoint that answers 410 to four deliveries at once is disabled once, with one alert', async () => {
  const store = new DeliveryStore(clients[0]!);
  const endpointId = 'we_race_gone';
  await insertEndpoint(clients[0]!, endpointId, { accountId: 'acct_race', livemode: false }, now);
  // Already failing: no attempt's "first failure" update takes the endpoint's row lock for it.
  await clients[0]!.webhookEndpoint.update({ where: { id: endpointId }, data: { failingSince: new Date(now.getTime() - 3_600_000) } });
  for (let i = 0; i < 4; i += 1) {
    const eventId = `evt_gone_${i}`;
    await clients[0]!.webhookEvent.create({
      data: { id: eventId, accountId: 'acct_race', livemode: false, type: 'payment.paid', created: now, body: {}, createdAt: now },
    });
    await clients[0]!.webhookDelivery.create({
      data: { id: `wd_gone_${i}`, eventId, endpointId, status: 'pending', nextAttemptAt: now, createdAt: now },
    });
  }
  const claimed = await store.claimDue(now, 10, { healthy: 10, failing: 10 }, 3_600_000);
  expect(claimed.map((d) => d.endpointId)).toEqual([endpointId, endpointId, endpointId, endpointId]);
  // Each worker records its 410 on its own connection, a millisecond apart (the alert's id holds the time).
  await Promise.all(
    claimed.map((delivery, i) =>
      new DeliveryStore(clients[i]!).recordAttempt({
        delivery,
        attemptedAt: now,
        finishedAt: new Date(now.getTime() + i + 1),
        verdict: 'gone',
        statusCode: 410,
        error: null,
        latencyMs: 5,
        requestBody: '{}',
        responseSnippet: null,
        nextAttemptAt: null,
        disableAfterFailingMs: 3 * 86_400_000,
        failingAlertAfterMs: 86_400_000,
      }),
    ),
  );
  const alerts = await clients[0]!.outboxMessage.findMany({ where: { subject: { contains: endpointId } }, select: { subject: true } });
  expect(alerts).toHaveLength(1);
  expect(await clients[0]!.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).toMatchObject({
    status: 'disabled',
    disabledReason: 'gone',
  });
});
