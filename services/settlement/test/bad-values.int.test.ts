// Risk covered: a value only PostgreSQL refuses (a NUL byte: SQLSTATE 22021) reaching the settlement
// store and surfacing as a 500. The shared gRPC mapping must answer it as 400 invalid_request, and
// no lock may be stored.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import { createLogger } from '@hc/logging';
import { SettlementService } from '@hc/proto/settlement/v1';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR, startSettlementService, type RunningSettlementService } from '../src/index.ts';

const test: CallContext = { accountId: 'acct_bad_values', livemode: false, requestId: 'req_t' };
let db: TestDatabase;
let service: RunningSettlementService;
let client: ServiceClient<typeof SettlementService>;

beforeAll(async () => {
  db = await createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR);
  const config = loadSettlementConfig({
    // One machine with the emulator: its published notice secret (docs/adr/0016).
    SETTLEMENT_LOCAL_MODE: 'true',
    SETTLEMENT_DATABASE_URL: db.url,
    SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
    SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:0',
    LOG_LEVEL: 'silent',
  });
  service = await startSettlementService(config, createLogger('settlement-test', { level: 'silent' }));
  client = createServiceClient(SettlementService, service.address);
});

afterAll(async () => {
  client.close();
  await service.stop();
  await db.drop();
});

const lock = { amount: '10.00', currency: 'EUR', payoutWallet: '0x1111111111111111111111111111111111111111', feeBps: 150 };

describe("settlement's store: a bad value is 400 invalid_request, never a 500", () => {
  it('a NUL in the payment id of a lock (22021) is invalid_request', async () => {
    await expect(client.lockSettlement({ ...lock, paymentId: `${newId('payment')}\u0000` }, test)).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('a NUL in the payout wallet of a lock (22021) is invalid_request', async () => {
    await expect(client.lockSettlement({ ...lock, paymentId: newId('payment'), payoutWallet: '0x11\u0000' }, test)).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('the same lock without the NUL is stored', async () => {
    const { lock: stored } = await client.lockSettlement({ ...lock, paymentId: newId('payment') }, test);
    expect(stored?.feeBps).toBe(150);
  });
});
