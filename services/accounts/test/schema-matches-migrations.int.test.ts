// Risk covered: hand-written migrations and schema.prisma drifting apart (a column the client
// expects that no migration creates, or one the migrations create that the schema does not know).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { schemaDrift, type PrismaDataModel } from '@hc/db';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { ACCOUNTS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { createAccountsPrisma } from '../src/store/prisma.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
});
afterAll(async () => {
  await db.drop();
});

it('the migrated database has exactly the tables and columns of schema.prisma', async () => {
  const prisma = createAccountsPrisma(db.url);
  // Prisma's runtime data model: the schema as the generated client knows it.
  const dataModel = (prisma as unknown as { _runtimeDataModel: PrismaDataModel })._runtimeDataModel;
  expect(await schemaDrift(db.url, dataModel)).toEqual([]);
  await prisma.$disconnect();
});
