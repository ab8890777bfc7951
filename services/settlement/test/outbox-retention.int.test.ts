// Risk covered: settlement's outbox and processed-message records growing without bound, or its purge
// deleting what is still needed. Settlement runs its own purge schedule on the EVENTS_* settings like
// every service with an outbox (docs/adr/0017): published rows past EVENTS_OUTBOX_RETENTION_MS and
// processed records past EVENTS_PROCESSED_RETENTION_MS go; unpublished and recent rows stay.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { createTestDatabase, eventually, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR, startSettlementService, type RunningSettlementService } from '../src/index.ts';
import { createSettlementPrisma, type SettlementPrisma } from '../src/store/prisma.ts';
import { VERDICT_REACHED_SUBJECT } from '@hc/events/contracts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let db: TestDatabase;
let prisma: SettlementPrisma;
let service: RunningSettlementService;

beforeAll(async () => {
  db = await createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR);
  prisma = createSettlementPrisma(db.url);
});
afterAll(async () => {
  await service?.stop();
  await prisma.$disconnect();
  await db.drop();
});

describe("settlement's outbox purge", () => {
  it('removes published outbox rows and processed records past their retention, and nothing else', async () => {
    const ago = (ms: number) => new Date(Date.now() - ms);
    const row = (msgId: string, createdAt: Date, publishedAt: Date | null) => ({
      msgId,
      subject: VERDICT_REACHED_SUBJECT,
      payload: {},
      createdAt,
      publishedAt,
    });
    await prisma.outboxMessage.createMany({
      data: [
        row('old-published', ago(10 * MINUTE), ago(10 * MINUTE)),
        row('recent-published', ago(10 * MINUTE), ago(5_000)),
        row('old-unpublished', ago(10 * MINUTE), null),
      ],
    });
    await prisma.processedMessage.createMany({
      data: [
        { consumer: 'c', msgId: 'old', processedAt: ago(3 * DAY) },
        { consumer: 'c', msgId: 'recent', processedAt: ago(MINUTE) },
      ],
    });
    service = await startSettlementService(
      loadSettlementConfig({
        // One machine with the emulator: its published notice secret (docs/adr/0016).
        SETTLEMENT_LOCAL_MODE: 'true',
        SETTLEMENT_DATABASE_URL: db.url,
        SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
        SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:0',
        NATS_URL: testNatsUrl(),
        NATS_SUBJECT_PREFIX: testNatsPrefix('settlementpurge'),
        EVENTS_OUTBOX_RETENTION_MS: String(MINUTE),
        EVENTS_STREAM_MAX_AGE_MS: String(10 * MINUTE),
        EVENTS_PROCESSED_RETENTION_MS: String(DAY + 10 * MINUTE),
        EVENTS_PURGE_INTERVAL_MS: '1000',
        LOG_LEVEL: 'silent',
      }),
      createLogger('settlement-purge-test', { level: 'silent' }),
    );
    const outbox = await eventually(
      async () => (await prisma.outboxMessage.findMany({ orderBy: { msgId: 'asc' } })).map((m) => m.msgId),
      (ids) => !ids.includes('old-published'),
    );
    // The unpublished row is relayed now (published just now), never purged before it went out.
    expect(outbox).toEqual(expect.arrayContaining(['old-unpublished', 'recent-published']));
    expect(outbox).not.toContain('old-published');
    const processed = await eventually(
      async () => (await prisma.processedMessage.findMany()).map((m) => m.msgId),
      (ids) => !ids.includes('old'),
    );
    expect(processed).toEqual(['recent']);
  });
});
