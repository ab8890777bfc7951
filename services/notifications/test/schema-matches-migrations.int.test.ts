// Risk covered: hand-written migrations and schema.prisma drifting apart (a column the schema
// describes that no migration creates, or one the migrations create that the schema does not know).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { schemaDrift, type PrismaDataModel } from '@hc/db';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { NOTIFICATIONS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { createNotificationsPrisma } from '../src/store/database.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('notifications', NOTIFICATIONS_MIGRATIONS_DIR);
});
afterAll(async () => {
  await db.drop();
});

it('the migrated database has exactly the tables and columns of schema.prisma', async () => {
  const prisma = createNotificationsPrisma(db.url);
  const dataModel = (prisma as unknown as { _runtimeDataModel: PrismaDataModel })._runtimeDataModel;
  expect(await schemaDrift(db.url, dataModel)).toEqual([]);
  await prisma.$disconnect();
});
