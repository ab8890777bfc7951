// Risk covered: the buyer's side of a session (HostedCheckoutService, no merchant key) showing more
// than that one session, starting it under other rules than the API's start, or letting a Live
// payment be simulated; over real gRPC, PostgreSQL, settlement and JetStream.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService, HostedCheckoutService, SessionStatus } from '@hc/proto/checkout/v1';
import { startCheckoutStack, type CheckoutStack } from '../src/testing/checkout-stack.ts';

const merchant: CallContext = { accountId: 'acct_H', livemode: false, requestId: 'req_h' };
const buyer: PublicCallContext = { requestId: 'req_buyer' };
const account = { feeBps: 100, payoutWallet: '0x2222222222222222222222222222222222222222', merchantName: 'Blue Mug Shop' };
let stack: CheckoutStack;
let api: ServiceClient<typeof CheckoutService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;

beforeAll(async () => {
  stack = await startCheckoutStack(createLogger('hosted-test', { level: 'silent' }), { label: 'hosted' });
  stack.clock.set(new Date('2026-03-01T12:00:00.000Z'));
  api = createServiceClient(CheckoutService, stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, stack.checkout.address);
});

afterAll(async () => {
  api.close();
  hosted.close();
  await stack.stop();
});

async function create(extra: Record<string, unknown> = {}, ctx = merchant): Promise<string> {
  const { session } = await api.createCheckoutSession(
    { amount: '19.90', currency: 'usd', description: 'Blue mug', account, metadata: { entries: { secret: 'm' } }, ...extra },
    ctx,
  );
  return session!.id;
}

describe('HostedCheckoutService', () => {
  it('shows the buyer the merchant name kept at create and nothing of metadata or settlement', async () => {
    const id = await create({ customerEmail: 'ann@example.com', reference: 'ORD-1', successUrl: 'https://shop.example/ok' });
    const { session } = await hosted.getHostedSession({ id }, buyer);
    expect(session).toMatchObject({
      id,
      status: SessionStatus.OPEN,
      livemode: false,
      merchantName: 'Blue Mug Shop',
      amount: '19.90',
      currency: 'USD',
      customerEmail: 'ann@example.com',
      reference: 'ORD-1',
      successUrl: 'https://shop.example/ok',
      started: false,
      providers: [],
    });
    expect(Object.keys(session!)).not.toContain('metadata');
    expect(Object.keys(session!)).not.toContain('settlement');
  });

  it('answers not_found for an unknown id or one that is not a payment id', async () => {
    await expect(hosted.getHostedSession({ id: 'pay_01JAAAAAAAAAAAAAAAAAAAAAAA' }, buyer)).rejects.toMatchObject({ code: 'not_found' });
    await expect(hosted.getHostedSession({ id: 'cus_01JAAAAAAAAAAAAAAAAAAAAAAA' }, buyer)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('starts with the same rules as the API: an invalid email is invalid_email, then a valid one lists providers', async () => {
    const id = await create();
    await expect(hosted.startHostedSession({ id, customerEmail: 'not-an-email', country: 'de' }, buyer)).rejects.toMatchObject({
      code: 'invalid_email',
    });
    const { session } = await hosted.startHostedSession({ id, customerEmail: 'Ann@Example.com', country: 'de' }, buyer);
    expect(session).toMatchObject({ started: true, country: 'DE', customerEmail: 'ann@example.com' });
    expect(session!.providers.map((p) => p.recommended)).toEqual([true, ...session!.providers.slice(1).map(() => false)]);
    // The merchant's read reflects the buyer's start, with the wallet and fee the gateway gave at create.
    const { session: read } = await api.getCheckoutSession({ id }, merchant);
    expect(read!.startedAt).toBeDefined();
    expect(read!.settlement?.payoutWallet).toBe(account.payoutWallet);
  });

  it('refuses a start no provider can take as no_providers', async () => {
    const id = await create();
    await expect(hosted.startHostedSession({ id, customerEmail: 'a@example.com', country: 'KP' }, buyer)).rejects.toMatchObject({
      code: 'no_providers',
    });
  });

  it('moves open to pending when the buyer reaches a provider, and a Test simulate ends it as the API would', async () => {
    const id = await create({ customerEmail: 'ann@example.com' });
    await hosted.startHostedSession({ id, country: 'us' }, buyer);
    const { session: pending } = await hosted.reachHostedProvider({ id, provider: 'cardrail' }, buyer);
    expect(pending).toMatchObject({ status: SessionStatus.PENDING, provider: 'cardrail' });
    const { session: held } = await hosted.simulateHostedPayment({ id, outcome: 'underpaid' }, buyer);
    expect(held).toMatchObject({ status: SessionStatus.HELD, providers: [] });
  });

  it('refuses to simulate a Live payment', async () => {
    const id = await create({ customerEmail: 'ann@example.com' }, { ...merchant, livemode: true });
    await hosted.startHostedSession({ id, country: 'us' }, buyer);
    await expect(hosted.simulateHostedPayment({ id, outcome: 'paid' }, buyer)).rejects.toMatchObject({ code: 'live_payment' });
  });

  it('answers expired for a start past expiry', async () => {
    const id = await create({ customerEmail: 'ann@example.com' });
    stack.clock.advance(25 * 60 * 60 * 1000);
    await expect(hosted.startHostedSession({ id, country: 'us' }, buyer)).rejects.toMatchObject({ code: 'expired' });
    const { session } = await hosted.getHostedSession({ id }, buyer);
    expect(session!.status).toBe(SessionStatus.EXPIRED);
  });
});
