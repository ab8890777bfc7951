// Risk covered: a value only PostgreSQL refuses (a NUL byte: SQLSTATE 22021) reaching the gateway's
// own store (idempotency records; accounts and keys are tested in the accounts context) and answered as a 500. The gateway's error
// responder maps store errors with badValueError; this proves the real store errors are recognised.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { badValueError, createPool } from '@hc/db';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { GATEWAY_MIGRATIONS_DIR } from '../src/index.ts';
import { createGatewayPrisma } from '../src/store/prisma.ts';
import { IdempotencyStore } from '../src/store/idempotency-store.ts';
import type { GatewayPrisma } from '../src/store/prisma.ts';

let db: TestDatabase;
let prisma: GatewayPrisma;

beforeAll(async () => {
  db = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  prisma = createGatewayPrisma(db.url);
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('the store accepted the value');
}

describe("the gateway's store: a bad value is 400 invalid_request, never a 500", () => {
  it('a NUL in an idempotency key (raw SQL write, 22021) is invalid_request and nothing is stored', async () => {
    const pool = createPool(db.url, { max: 1 });
    const store = new IdempotencyStore(pool);
    const scope = { accountId: 'acct_nul', livemode: false, key: 'key\u0000' };
    const now = new Date();
    const record = {
      requestHash: 'h',
      objectId: 'pay_x',
      state: 'running' as const,
      lockedUntil: now,
      expiresAt: new Date(now.getTime() + 60_000),
    };
    const error = await failureOf(() => store.claim(scope, record, now));
    expect(badValueError(error)?.httpStatus).toBe(400);
    expect(await prisma.idempotencyRecord.count()).toBe(0);
    await pool.end();
  });
});
