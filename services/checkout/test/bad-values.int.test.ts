// Risk covered: a value only PostgreSQL refuses (a NUL byte: SQLSTATE 22021) reaching checkout's store
// past the gateway's edge rule and surfacing as a 500. The shared gRPC mapping must answer it as 400
// invalid_request, and nothing may be written.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const test: CallContext = { accountId: 'acct_bad_values', livemode: false, requestId: 'req_t' };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;

beforeAll(async () => {
  stack = await startCheckoutStack(createLogger('checkout-test', { level: 'silent' }));
  client = createServiceClient(CheckoutService, stack.checkout.address);
});

afterAll(async () => {
  client.close();
  await stack.stop();
});

const order = { amount: '25.00', currency: 'EUR', description: 'Blue mug' };

describe("checkout's store: a bad value is 400 invalid_request, never a 500", () => {
  it.each([
    ['description', { description: 'Blue\u0000mug' }],
    ['reference', { reference: 'ORD\u0000' }],
  ])('a NUL in %s refused by PostgreSQL (22021) is invalid_request and stores nothing', async (_label, change) => {
    await expect(client.createCheckoutSession({ ...order, ...change }, test)).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await client.listPayments({ limit: 100 }, test)).data).toEqual([]);
  });

  it('a NUL in customer_email is refused before the store by the one address rule: invalid_email, nothing stored', async () => {
    await expect(client.createCheckoutSession({ ...order, customerEmail: 'ann\u0000@example.com' }, test)).rejects.toMatchObject({
      code: 'invalid_email',
      field: 'customer_email',
    });
    expect((await client.listPayments({ limit: 100 }, test)).data).toEqual([]);
  });

  it('the same request without the NUL is stored (and listed, so the listing above can see a write)', async () => {
    const { payment } = await client.createCheckoutSession(order, test);
    expect((await client.listPayments({ limit: 100 }, test)).data.map((p) => p.id)).toEqual([payment?.id]);
  });
});
