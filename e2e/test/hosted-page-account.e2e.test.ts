// Risk covered: the hosted page (which has no merchant key) showing a wrong or missing merchant name,
// or starting a buyer's payment with a payout wallet other than the account's (read from the gateway at
// start, ADR 0037; a wallet changed after create: account-at-start.e2e.test.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { HostedCheckoutService } from '@hc/proto/checkout/v1';
import { bodyOf, createSession, VALID_BODY } from './e2e-helpers.ts';
import { startPlatform, WALLET, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
});
afterAll(async () => {
  await platform.stop();
});

describe('the account as the gateway has it', () => {
  it('reaches the buyer: the account name on the hosted view, and its payout wallet when the buyer starts there', async () => {
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'buyer@example.com' });
    const hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(
      HostedCheckoutService,
      platform.stack.checkout.address,
    );
    try {
      const id = String(session['id']);
      const { session: view } = await hosted.startHostedSession({ id, country: 'US' }, { requestId: 'req_e2e' });
      expect(view!.merchantName).toBe('Test shop');
      const payment = await bodyOf(await platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey }));
      expect(payment).toMatchObject({ status: 'open', settlement: expect.objectContaining({ payout_wallet: WALLET }) });
      expect(payment['started_at']).toEqual(expect.any(Number));
    } finally {
      hosted.close();
    }
  });
});
