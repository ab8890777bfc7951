// Risk covered: a start that half-happens when the settlement service does not answer — the buyer
// must get 502 network_unavailable (retry in a minute) and the session must stay unstarted.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const ctx: CallContext = { accountId: 'acct_N', livemode: false, requestId: 'req_n' };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;

beforeAll(async () => {
  stack = await startCheckoutStack(createLogger('no-settlement-test', { level: 'silent' }), { label: 'nosettle' });
  client = createServiceClient(CheckoutService, stack.checkout.address);
});
afterAll(async () => {
  client.close();
  await stack.stop();
});

describe('start while settlement is down', () => {
  it('answers network_unavailable and starts nothing', async () => {
    const { payment } = await client.createCheckoutSession(
      { amount: '10', currency: 'USD', description: 'Kettle', customerEmail: 'k@example.com' },
      ctx,
    );
    await stack.settlement.stop();
    await expect(client.startCheckoutSession({ id: payment!.id, account: { feeBps: 150 } }, ctx)).rejects.toMatchObject({
      code: 'network_unavailable',
    });
    const { payment: after } = await client.getCheckoutSession({ id: payment!.id }, ctx);
    expect(after!.startedAt).toBeUndefined();
  });
});
