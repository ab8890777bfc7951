// Risk covered: a retried or raced create making a second session (a double charge waiting to
// happen), or a retry answered with another request's session — every row of the spec's idempotency
// table, races within one gateway and across two gateway processes, and a crash mid-create.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createGatewayPrisma, IdempotencyStore } from '@hc/gateway/testing';
import { newId } from '@hc/ids';
import { openTestPool } from '@hc/test-kit';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;
let second: GatewayProcess;
let keyCounter = 0;

const body = {
  amount: '30.00',
  currency: 'USD',
  description: 'Desk lamp',
  customer_email: 'ida@example.com',
  metadata: { a: '1', b: '2' },
};
const uniqueKey = (): string => `order-${process.pid}-${Date.now()}-${++keyCounter}`;

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

async function create(
  key: string | undefined,
  payload: unknown = body,
  options: { apiKey?: string; baseUrl?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.apiKey ?? merchant.testKey}`,
    'content-type': 'application/json',
  };
  if (key !== undefined) headers['idempotency-key'] = key;
  const response = await fetch(`${options.baseUrl ?? platform.url}/v1/checkout_sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify(payload),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function sessionCount(apiKey = merchant.testKey): Promise<number> {
  const response = await platform.request('GET', '/v1/payments?limit=100', { key: apiKey });
  return ((await response.json()) as { data: unknown[] }).data.length;
}

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
  second = await startGatewayProcess(platform.gatewayConfig);
});
afterAll(async () => {
  await second.stop();
  await platform.stop();
});

describe('the idempotency table', () => {
  it('first request with a key: 201 and the new session', async () => {
    const first = await create(uniqueKey());
    expect(first.status).toBe(201);
    expect(first.json['status']).toBe('open');
  });

  it('same key and body: 200 and the same session with its current status', async () => {
    const key = uniqueKey();
    const first = await create(key);
    const id = String(first.json['id']);
    await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} });
    await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } });
    const again = await create(key);
    expect(again.status).toBe(200);
    expect(again.json['id']).toBe(id);
    expect(again.json['object']).toBe('checkout_session');
    expect(again.json['status']).toBe('paid');
  });

  it('same key, different body: 409 idempotency_conflict', async () => {
    const key = uniqueKey();
    await create(key);
    const other = await create(key, { ...body, amount: '31.00' });
    expect(other.status).toBe(409);
    expect(other.json).toMatchObject({ error: { code: 'idempotency_conflict' } });
  });

  it('metadata key order and unknown fields do not make a different body', async () => {
    const key = uniqueKey();
    const first = await create(key);
    const reordered = await create(key, {
      surprise: true,
      metadata: { b: '2', a: '1' },
      customer_email: body.customer_email,
      description: body.description,
      currency: 'USD',
      amount: '30.00',
    });
    expect(reordered.status).toBe(200);
    expect(reordered.json['id']).toBe(first.json['id']);
  });

  it('a field sent as null and one left out are the same request, inside customer too', async () => {
    const key = uniqueKey();
    const first = await create(key, { ...body, customer: { name: 'Ann', phone: null, shipping_address: { city: 'Oslo' } } });
    expect(first.status).toBe(201);
    const again = await create(key, {
      ...body,
      reference: null,
      customer: { name: 'Ann', nickname: 'A', shipping_address: { city: 'Oslo', line2: null } },
    });
    expect(again.status).toBe(200);
    expect(again.json['id']).toBe(first.json['id']);
    expect((await create(key, { ...body, customer: { name: 'Bob' } })).status).toBe(409);
  });

  it.each([
    ['blank', '   '],
    ['empty', ''],
    ['121 characters (never truncated)', 'k'.repeat(121)],
    ['not ASCII', 'clé-42'],
    ['a control character', 'tab\there'],
  ])('invalid key (%s): 400 invalid_idempotency_key, nothing created', async (_label, key) => {
    const before = await sessionCount();
    const answer = await create(key);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: 'invalid_idempotency_key' } });
    expect(await sessionCount()).toBe(before);
  });

  it('accepts a key of exactly 120 printable characters', async () => {
    expect((await create(`${'~'.repeat(100)}${String(++keyCounter).padStart(20, '0')}`)).status).toBe(201);
  });

  it('a key older than 24 hours creates a new session', async () => {
    const key = uniqueKey();
    const first = await create(key);
    platform.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await create(key);
    expect(later.status).toBe(201);
    expect(later.json['id']).not.toBe(first.json['id']);
  });

  it('the same key in Test and Live is two keys', async () => {
    const key = uniqueKey();
    const test = await create(key);
    const live = await create(key, body, { apiKey: merchant.liveKey });
    expect([test.status, live.status]).toEqual([201, 201]);
    expect(live.json['livemode']).toBe(true);
    expect(live.json['id']).not.toBe(test.json['id']);
  });

  it('the same key on two accounts is two keys', async () => {
    const key = uniqueKey();
    const other = await platform.merchant();
    const mine = await create(key);
    const theirs = await create(key, body, { apiKey: other.testKey });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.json['id']).not.toBe(mine.json['id']);
  });

  it('without the header every create makes a new session', async () => {
    const [a, b] = [await create(undefined), await create(undefined)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json['id']).not.toBe(b.json['id']);
  });

  it('a request refused by validation is not remembered', async () => {
    const key = uniqueKey();
    const refused = await create(key, { ...body, amount: '0.10' });
    expect(refused.status).toBe(400);
    const accepted = await create(key);
    expect(accepted.status).toBe(201);
  });
});

describe('races', () => {
  it('50 concurrent identical creates with one key make exactly one session', async () => {
    const key = uniqueKey();
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(key)));
    const ok = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(ok.map((a) => a.json['id'])).size).toBe(1);
    for (const other of answers.filter((a) => a.status !== 200 && a.status !== 201)) {
      expect(other).toMatchObject({ status: 409, json: { error: { code: 'idempotency_conflict' } } });
    }
  });

  it('identical creates spread over two gateway processes make exactly one session', async () => {
    const key = uniqueKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(key, body, { baseUrl: i % 2 === 0 ? platform.url : second.url })),
    );
    const ok = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(ok.map((a) => a.json['id'])).size).toBe(1);
  });

  it('a conflicting body during the race never gets the session', async () => {
    const key = uniqueKey();
    const other = { ...body, amount: '99.00' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(key, i % 2 === 0 ? body : other, { baseUrl: i % 4 < 2 ? platform.url : second.url })),
    );
    const winners = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(new Set(winners.map((a) => a.json['id'])).size).toBe(1);
    expect(new Set(winners.map((a) => a.json['amount'])).size).toBe(1);
    const losingAmount = winners[0]!.json['amount'] === '30.00' ? '99.00' : '30.00';
    expect(answers.filter((a) => a.status === 409).length).toBeGreaterThanOrEqual(10);
    expect(winners.some((a) => a.json['amount'] === losingAmount)).toBe(false);
  });
});

// Risk covered: the grouped claims and creates (docs/adr/0062, 0070) mixing up the answers of
// requests that share statements: every row of the table at once, in one burst whose claims and
// creates form groups, through one gateway and spread over two processes.
describe('the idempotency table inside one burst (claims and creates in groups)', () => {
  it.each([
    ['one gateway process', false],
    ['two gateway processes', true],
  ])('every row answers as it would alone: %s', async (_label, spread) => {
    const baseUrl = (i: number): string => (spread && i % 2 === 1 ? second.url : platform.url);
    // Remembered before the burst: one key whose 24 hours are over, one done key per replay. The
    // record is aged in the table, not by moving the test clock: the second process keeps real time,
    // and two clocks days apart would disagree on which records are live.
    const expiredKey = uniqueKey();
    const expired = await create(expiredKey);
    const prisma = createGatewayPrisma(platform.gatewayDatabaseUrl);
    await prisma.idempotencyRecord.updateMany({
      where: { accountId: merchant.accountId, livemode: false, key: expiredKey },
      data: { expiresAt: new Date(0) },
    });
    await prisma.$disconnect();
    const [replayKey, conflictKey] = [uniqueKey(), uniqueKey()];
    const replayed = await create(replayKey);
    await create(conflictKey);
    const [raceKey, bothModesKey] = [uniqueKey(), uniqueKey()];
    const requests: { row: string; send: (i: number) => Promise<Answer> }[] = [
      ...Array.from({ length: 16 }, () => {
        const key = uniqueKey();
        return { row: 'first', send: (i: number) => create(key, body, { baseUrl: baseUrl(i) }) };
      }),
      ...Array.from({ length: 4 }, () => ({ row: 'replay', send: (i: number) => create(replayKey, body, { baseUrl: baseUrl(i) }) })),
      ...Array.from({ length: 4 }, () => ({
        row: 'conflict',
        send: (i: number) => create(conflictKey, { ...body, amount: '31.00' }, { baseUrl: baseUrl(i) }),
      })),
      ...Array.from({ length: 10 }, () => ({ row: 'race', send: (i: number) => create(raceKey, body, { baseUrl: baseUrl(i) }) })),
      { row: 'expired', send: (i) => create(expiredKey, body, { baseUrl: baseUrl(i) }) },
      { row: 'test', send: (i) => create(bothModesKey, body, { baseUrl: baseUrl(i) }) },
      { row: 'live', send: (i) => create(bothModesKey, body, { apiKey: merchant.liveKey, baseUrl: baseUrl(i) }) },
      { row: 'invalid', send: (i) => create('tab\there', body, { baseUrl: baseUrl(i) }) },
      { row: 'refused', send: (i) => create(uniqueKey(), { ...body, amount: '0.10' }, { baseUrl: baseUrl(i) }) },
    ];
    const answers = await Promise.all(requests.map((r, i) => r.send(i)));
    const of = (row: string): Answer[] => answers.filter((_a, i) => requests[i]!.row === row);

    const firsts = of('first');
    expect(firsts.map((a) => a.status)).toEqual(firsts.map(() => 201));
    expect(new Set(firsts.map((a) => a.json['id'])).size).toBe(firsts.length);
    for (const a of of('replay')) expect([a.status, a.json['id']]).toEqual([200, replayed.json['id']]);
    for (const a of of('conflict')) expect(a).toMatchObject({ status: 409, json: { error: { code: 'idempotency_conflict' } } });
    const race = of('race');
    expect(race.filter((a) => a.status === 201)).toHaveLength(1);
    const raceOk = race.filter((a) => a.status === 200 || a.status === 201);
    expect(new Set(raceOk.map((a) => a.json['id'])).size).toBe(1);
    for (const a of race.filter((r) => !raceOk.includes(r))) {
      expect(a).toMatchObject({ status: 409, json: { error: { code: 'idempotency_conflict' } } });
    }
    const [renewed] = of('expired');
    expect(renewed!.status).toBe(201);
    expect(renewed!.json['id']).not.toBe(expired.json['id']);
    const [test, live] = [of('test')[0]!, of('live')[0]!];
    expect([test.status, live.status, live.json['livemode']]).toEqual([201, 201, true]);
    expect(live.json['id']).not.toBe(test.json['id']);
    expect(of('invalid')[0]).toMatchObject({ status: 400, json: { error: { code: 'invalid_idempotency_key' } } });
    expect(of('refused')[0]!.status).toBe(400);

    // Afterwards each key answers its own session again.
    const again = await Promise.all([raceKey, bothModesKey, expiredKey].map((key, n) => create(key, body, { baseUrl: baseUrl(n) })));
    expect(again.map((a) => [a.status, a.json['id']])).toEqual([
      [200, raceOk[0]!.json['id']],
      [200, test.json['id']],
      [200, renewed!.json['id']],
    ]);
  });
});

// Risk covered (docs/adr/0070): no completion is recorded after the create, so a retry after a crash
// must learn from checkout alone whether the session was made — never a second session, never a wait
// for a record that nothing will complete, never a 404 for a session nobody made.
describe('a crash of the request that owns a key', () => {
  it("after creating the session: the retry answers it at once, though the dead owner's lock still holds", async () => {
    const prisma = createGatewayPrisma(platform.gatewayDatabaseUrl);
    const key = uniqueKey();
    const scope = { accountId: merchant.accountId, livemode: false, key };
    // The first attempt claimed the key and created the session, then died before answering.
    const first = await create(key);
    await prisma.idempotencyRecord.updateMany({
      where: scope,
      data: { lockedUntil: new Date(platform.clock.now().getTime() + 60 * 60 * 1000) },
    });
    const before = await sessionCount();
    const retry = await create(key);
    expect(retry.status).toBe(200);
    expect(retry.json['id']).toBe(first.json['id']);
    expect(await sessionCount()).toBe(before);
    await prisma.$disconnect();
  });

  it('before creating the session: once its lock ran out the retry creates it, with the id the owner chose', async () => {
    const prisma = createGatewayPrisma(platform.gatewayDatabaseUrl);
    const key = uniqueKey();
    const scope = { accountId: merchant.accountId, livemode: false, key };
    await create(key);
    // As if the owner had claimed another id and died before checkout wrote anything.
    const chosen = newId('payment');
    await prisma.idempotencyRecord.updateMany({ where: scope, data: { sessionId: chosen, lockedUntil: new Date(0) } });
    const before = await sessionCount();
    const retries = await Promise.all([create(key), create(key), create(key)]);
    expect(retries.map((r) => r.json['id'])).toEqual([chosen, chosen, chosen]);
    expect(retries.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await sessionCount()).toBe(before + 1);
    await prisma.$disconnect();
  });

  it('expired records are purged', async () => {
    const pool = openTestPool(platform.gatewayDatabaseUrl, 1);
    const store = new IdempotencyStore(pool);
    const key = uniqueKey();
    await create(key);
    expect(await store.purgeExpired(new Date(platform.clock.now().getTime() + 25 * 60 * 60 * 1000))).toBeGreaterThanOrEqual(1);
    expect(await store.find({ accountId: merchant.accountId, livemode: false, key })).toBeNull();
    await pool.end();
  });
});
