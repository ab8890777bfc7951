// Risk covered: a value only PostgreSQL refuses (a NUL byte: SQLSTATE 22021) reaching the accounts store
// and answered as a 500. The gRPC error mapping recognises it with badValueError; this proves the real
// store error is recognised.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { badValueError } from '@hc/db';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { ACCOUNTS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { MerchantStore, NO_KEY_CACHES } from '../src/store/merchant-store.ts';
import { createAccountsPrisma, type AccountsPrisma } from '../src/store/prisma.ts';

let db: TestDatabase;
let prisma: AccountsPrisma;

beforeAll(async () => {
  db = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  prisma = createAccountsPrisma(db.url);
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

describe('the accounts store: a bad value is 400 invalid_request, never a 500', () => {
  it('a NUL in an account name (Prisma model write, 22021) is invalid_request and nothing is stored', async () => {
    const store = new MerchantStore(prisma, NO_KEY_CACHES);
    const error = await failureOf(() =>
      store.insertAccount({ id: 'acct_nul', name: 'Shop\u0000', status: 'active', payoutWallet: null, feeBps: 150, createdAt: new Date() }),
    );
    expect(badValueError(error)?.toBody().error.code).toBe('invalid_request');
    expect(await store.findAccount('acct_nul')).toBeNull();
  });
});
