// Risk covered: the checkout service, over real gRPC and PostgreSQL, storing a session wrongly,
// leaking one across accounts or modes, or failing to expire it when read past its expiry.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { newId } from '@hc/ids';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const test: CallContext = { accountId: 'acct_A', livemode: false, requestId: 'req_t' };
const live: CallContext = { ...test, livemode: true };
const otherAccount: CallContext = { ...test, accountId: 'acct_B' };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
const clock = { now: (): Date => stack.clock.now(), advance: (ms: number): void => stack.clock.advance(ms) };

beforeAll(async () => {
  stack = await startCheckoutStack(createLogger('checkout-test', { level: 'silent' }));
  stack.clock.set(new Date('2026-03-01T12:00:00.000Z'));
  client = createServiceClient(CheckoutService, stack.checkout.address);
});

afterAll(async () => {
  client.close();
  await stack.stop();
});

const order = { amount: '25', currency: 'eur', description: 'Blue mug' };

describe('CreateCheckoutSession', () => {
  it('stores an open session with normalized fields and a 24-hour expiry', async () => {
    const { payment } = await client.createCheckoutSession(
      { ...order, customerEmail: 'Ann@Example.com', reference: 'ORD-7', metadata: { entries: { sku: 'mug-1' } } },
      test,
    );
    expect(payment).toMatchObject({
      status: 'open',
      mode: 'test',
      amount: '25.00',
      currency: 'EUR',
      description: 'Blue mug',
      reference: 'ORD-7',
      customerEmail: 'ann@example.com',
      metadata: { sku: 'mug-1' },
    });
    expect(payment!.id).toMatch(/^pay_/);
    expect(payment!.url).toBe(`https://pay.example.test/pay/${payment!.id}`);
    expect(payment!.createdAt).toBe(BigInt(clock.now().getTime()));
    expect(payment!.expiresAt - payment!.createdAt).toBe(86_400_000n);
    expect(payment!.startedAt).toBeUndefined();
  });

  it('refuses a Live session when the account has no payout wallet, and stores nothing', async () => {
    await expect(client.createCheckoutSession(order, live)).rejects.toMatchObject({ code: 'no_payout_wallet' });
    const { payment } = await client.createCheckoutSession({ ...order, account: { payoutWallet: '0xabc' } }, live);
    expect(payment!.mode).toBe('live');
  });

  it('names the field at fault', async () => {
    const failure = client.createCheckoutSession(
      { ...order, successUrl: 'http://shop.example/ok', account: { payoutWallet: '0xabc' } },
      live,
    );
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid_url', field: 'success_url' });
  });
});

describe('GetCheckoutSession', () => {
  it('returns the caller’s session as stored', async () => {
    const { payment: created } = await client.createCheckoutSession(order, test);
    const { payment } = await client.getCheckoutSession({ id: created!.id }, test);
    expect(payment).toEqual(created);
  });

  it('hides sessions of another account or the other mode', async () => {
    const { payment } = await client.createCheckoutSession(order, test);
    await expect(client.getCheckoutSession({ id: payment!.id }, otherAccount)).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.getCheckoutSession({ id: payment!.id }, live)).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.getCheckoutSession({ id: 'pay_nope' }, test)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('marks an unpaid session expired when read at its expiry, and not a moment before', async () => {
    const { payment } = await client.createCheckoutSession(order, test);
    clock.advance(86_400_000 - 1);
    expect((await client.getCheckoutSession({ id: payment!.id }, test)).payment!.status).toBe('open');
    clock.advance(1);
    const reads = await Promise.all([1, 2, 3].map(() => client.getCheckoutSession({ id: payment!.id }, test)));
    expect(reads.map((r) => r.payment!.status)).toEqual(['expired', 'expired', 'expired']);
  });
});

describe('CreateCheckoutSession with a preset id (idempotent creates)', () => {
  it('makes the session once, also when retries race', async () => {
    const id = newId('payment');
    const results = await Promise.all(Array.from({ length: 10 }, () => client.createCheckoutSession({ ...order, id }, test)));
    expect(new Set(results.map((r) => r.payment!.id))).toEqual(new Set([id]));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const again = await client.createCheckoutSession({ ...order, id }, test);
    expect(again.created).toBe(false);
    expect(again.payment).toEqual(results[0]!.payment);
  });

  // Risk covered (docs/adr/0070): a retry of a Live create made while the payout wallet was set, sent
  // after the merchant removed it, was refused; the gateway then forgot the key, and the next retry
  // made a second session for it.
  it('answers a made session for its preset id even where a new create would now be refused', async () => {
    const id = newId('payment');
    const first = await client.createCheckoutSession({ ...order, id, account: { payoutWallet: '0xabc' } }, live);
    expect(first.created).toBe(true);
    const again = await client.createCheckoutSession({ ...order, id }, live);
    expect([again.created, again.payment]).toEqual([false, first.payment]);
    // An id nobody made is still refused, and the same id in the other mode is another session.
    await expect(client.createCheckoutSession({ ...order, id: newId('payment') }, live)).rejects.toMatchObject({
      code: 'no_payout_wallet',
    });
    await expect(client.createCheckoutSession({ ...order, id, amount: '-1' }, test)).rejects.toMatchObject({ code: 'invalid_amount' });
  });

  it('refuses an id that is not a payment id', async () => {
    await expect(client.createCheckoutSession({ ...order, id: 'cus_123' }, test)).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'id',
    });
  });
});
