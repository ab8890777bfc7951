// Risk covered: the buyer's side of a session (HostedCheckoutService, no merchant key) showing more
// than that one session, starting it under other rules than the API's start, letting a Live payment
// be simulated, locking a payout wallet or fee other than the account's current one (a copy kept at
// create), or letting a suspended account's buyers start, go to a provider, simulate, or pay a checkout
// (ADR 0037); or a buyer's click reading the session more than once (issue 31: one read per click);
// over real gRPC, PostgreSQL, settlement, the accounts service and JetStream.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, HostedCheckoutService, SessionStatus } from '@hc/proto/checkout/v1';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const merchant: CallContext = { accountId: 'acct_H', livemode: false, requestId: 'req_h' };
const buyer: PublicCallContext = { requestId: 'req_buyer' };
const account = { feeBps: 100, payoutWallet: '0x2222222222222222222222222222222222222222', merchantName: 'Blue Mug Shop' };
const NEW_WALLET = '0x5555555555555555555555555555555555555555';
let stack: CheckoutStack;
let api: ServiceClient<typeof CheckoutService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;

beforeAll(async () => {
  stack = await startCheckoutStack(createLogger('hosted-test', { level: 'silent' }), { label: 'hosted' });
  stack.clock.set(new Date('2026-03-01T12:00:00.000Z'));
  await stack.putAccount({ id: merchant.accountId, name: account.merchantName, payoutWallet: account.payoutWallet, feeBps: 100 });
  api = createServiceClient(CheckoutService, stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, stack.checkout.address);
});

afterAll(async () => {
  api.close();
  hosted.close();
  await stack.stop();
});

async function create(extra: Record<string, unknown> = {}, ctx = merchant): Promise<string> {
  const { payment } = await api.createCheckoutSession(
    { amount: '19.90', currency: 'usd', description: 'Blue mug', account, metadata: { entries: { secret: 'm' } }, ...extra },
    ctx,
  );
  return payment!.id;
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

  it('answers grouped views (GetHostedSessions) each as its single call, in order: its own session or its own error', async () => {
    const first = await create({ description: 'First mug' });
    const second = await create({ description: 'Second mug' });
    const ids = [second, 'pay_01JAAAAAAAAAAAAAAAAAAAAAAA', first, 'cus_01JAAAAAAAAAAAAAAAAAAAAAAA', second];
    const { outcomes } = await hosted.getHostedSessions(
      { calls: ids.map((id) => ({ id })), requestIds: ids.map((_, i) => `req_${i}`) },
      buyer,
    );
    const seen = outcomes.map(({ outcome }) =>
      outcome.case === 'answer' ? [outcome.value.session!.id, outcome.value.session!.description] : [outcome.case, outcome.value?.code],
    );
    expect(seen).toEqual([
      [second, 'Second mug'],
      ['failure', 'not_found'],
      [first, 'First mug'],
      ['failure', 'not_found'],
      [second, 'Second mug'],
    ]);
    // The same view a single call answers.
    const single = (await hosted.getHostedSession({ id: first }, buyer)).session;
    expect(outcomes[2]!.outcome.value).toEqual({ $typeName: 'hc.checkout.v1.GetHostedSessionResponse', session: single });
  });

  it('starts with the same rules as the API: an invalid email is invalid_email, then a valid one lists providers', async () => {
    const id = await create();
    await expect(hosted.startHostedSession({ id, customerEmail: 'not-an-email', country: 'de' }, buyer)).rejects.toMatchObject({
      code: 'invalid_email',
    });
    const { session } = await hosted.startHostedSession({ id, customerEmail: 'Ann@Example.com', country: 'de' }, buyer);
    expect(session).toMatchObject({ started: true, country: 'DE', customerEmail: 'ann@example.com' });
    expect(session!.providers.map((p) => p.recommended)).toEqual([true, ...session!.providers.slice(1).map(() => false)]);
    // The merchant's read reflects the buyer's start, with the account's wallet.
    const { payment: read } = await api.getCheckoutSession({ id }, merchant);
    expect(read!.startedAt).toBeDefined();
    expect(read!.payoutWallet).toBe(account.payoutWallet);
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

/** A merchant of its own in accounts, so a change to it touches no other test. */
async function ownMerchant(fields: { payoutWallet?: string | null; feeBps?: number } = {}): Promise<CallContext> {
  const id = `acct_H${Math.random().toString(36).slice(2, 10)}`;
  await stack.putAccount({ id, name: 'Blue Mug Shop', payoutWallet: account.payoutWallet, feeBps: 100, ...fields });
  return { accountId: id, livemode: false, requestId: 'req_own' };
}

describe('the account a buyer pays: as accounts has it at start, never as it was at create (ADR 0037)', () => {
  it('a start from the page locks the wallet the merchant set after the session was created, not the one given at create', async () => {
    const own = await ownMerchant();
    const id = await create({ customerEmail: 'ann@example.com' }, own);
    await stack.accounts.operations.setPayoutWallet(own.accountId, NEW_WALLET);
    await hosted.startHostedSession({ id, country: 'us' }, buyer);
    const { payment: read } = await api.getCheckoutSession({ id }, own);
    expect(read!.payoutWallet).toBe(NEW_WALLET);
  });

  it('a Live start from the page is unavailable once the wallet was removed, as the API start is; nothing starts', async () => {
    const own = await ownMerchant();
    const live = { ...own, livemode: true };
    const id = await create({ customerEmail: 'ann@example.com' }, live);
    await stack.accounts.operations.setPayoutWallet(own.accountId, null);
    const { session: view } = await hosted.getHostedSession({ id }, buyer);
    expect(view).toMatchObject({ unavailable: true, started: false });
    await expect(hosted.startHostedSession({ id, country: 'us' }, buyer)).rejects.toMatchObject({ code: 'unavailable' });
    expect((await api.getCheckoutSession({ id }, live)).payment!.startedAt).toBeUndefined();
  });
});

describe('a suspended account on the buyer side (ADR 0037)', () => {
  it('shows unpaid sessions as unavailable (no providers) and refuses start, provider reached and simulate', async () => {
    const own = await ownMerchant();
    const fresh = await create({ customerEmail: 'ann@example.com' }, own);
    const started = await create({ customerEmail: 'ann@example.com' }, own);
    await hosted.startHostedSession({ id: started, country: 'us' }, buyer);
    await stack.accounts.operations.suspend(own.accountId);

    const { session: freshView } = await hosted.getHostedSession({ id: fresh }, buyer);
    expect(freshView).toMatchObject({ unavailable: true, providers: [] });
    const { session: startedView } = await hosted.getHostedSession({ id: started }, buyer);
    expect(startedView).toMatchObject({ unavailable: true, started: true, providers: [] });
    await expect(hosted.startHostedSession({ id: fresh, country: 'us' }, buyer)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(hosted.startHostedSession({ id: started, country: 'us' }, buyer)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(hosted.reachHostedProvider({ id: started, provider: 'cardrail' }, buyer)).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(hosted.simulateHostedPayment({ id: started, outcome: 'paid' }, buyer)).rejects.toMatchObject({ code: 'unavailable' });
    const unstarted = (await api.getCheckoutSession({ id: fresh }, own)).payment!;
    expect([unstarted.status, unstarted.startedAt]).toEqual(['open', undefined]);
    expect((await api.getCheckoutSession({ id: started }, own)).payment!.status).toBe('open');

    // Reactivated, the same session can be paid again.
    await stack.accounts.operations.reactivate(own.accountId);
    expect((await hosted.getHostedSession({ id: started }, buyer)).session!.unavailable).toBe(false);
    const { session: paid } = await hosted.simulateHostedPayment({ id: started, outcome: 'paid' }, buyer);
    expect(paid!.status).toBe(SessionStatus.PAID);
  });

  it('leaves a finished payment readable as it is (not unavailable)', async () => {
    const own = await ownMerchant();
    const id = await create({ customerEmail: 'ann@example.com' }, own);
    await hosted.startHostedSession({ id, country: 'us' }, buyer);
    await hosted.simulateHostedPayment({ id, outcome: 'paid' }, buyer);
    await stack.accounts.operations.suspend(own.accountId);
    expect((await hosted.getHostedSession({ id }, buyer)).session).toMatchObject({ status: SessionStatus.PAID, unavailable: false });
  });

  it("refuses a checkout's page and its payment (unavailable), and makes no payment", async () => {
    const own = await ownMerchant();
    const admin = createServiceClient(CheckoutAdminService, stack.checkout.address);
    try {
      const { checkout } = await admin.createCheckout({ kind: 'page', description: 'Mug', currency: 'USD', amount: '15', account }, own);
      await stack.accounts.operations.suspend(own.accountId);
      await expect(hosted.getHostedCheckout({ id: checkout!.id }, buyer)).rejects.toMatchObject({ code: 'unavailable' });
      await expect(hosted.payCheckout({ id: checkout!.id }, buyer)).rejects.toMatchObject({ code: 'unavailable' });
      expect((await api.listPayments({ limit: 100 }, own)).data).toEqual([]);
    } finally {
      admin.close();
    }
  });
});

const ORIGINAL_QUERY = pg.Client.prototype.query;

/**
 * Every statement any pg client of this process sends that names `id` (its values, or an array among
 * them, hold it): the reads, locks and writes of one session, whichever pool or Prisma sends them, and
 * nothing of the relay, the sweeper or other tests' sessions. Each still runs.
 */
function statementsAbout(id: string): { readonly kinds: () => string[]; stop(): void } {
  const mentions = (value: unknown): boolean => value === id || (Array.isArray(value) && value.some(mentions));
  const seen: string[] = [];
  const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const config = (typeof first === 'string' ? { text: first } : (first ?? {})) as { text?: string; values?: unknown[] };
    const text = (config.text ?? '').trim();
    if (text.includes('checkout_sessions') && mentions(config.values ?? second)) {
      seen.push(/FOR UPDATE/i.test(text) ? 'locked read' : (/^\w+/.exec(text)?.[0] ?? '?').toLowerCase());
    }
    return (ORIGINAL_QUERY as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  return { kinds: () => [...seen], stop: () => spy.mockRestore() };
}

describe('one read per buyer click (issue 31)', () => {
  it('the start click reads the session once, then locks it with the same statement that re-reads it, then writes: nothing else', async () => {
    const id = await create({ customerEmail: 'ann@example.com' });
    const statements = statementsAbout(id);
    try {
      const { session } = await hosted.startHostedSession({ id, country: 'us' }, buyer);
      expect(session).toMatchObject({ id, started: true, unavailable: false });
    } finally {
      statements.stop();
    }
    // Before (measured on the previous code, with the page's load before and its reload after the
    // start, as pages did): 3 gRPC calls and 9 statements about the session (3 scope lookups, 3 reads,
    // the lock, a re-read under it, the update). Now one call (pages keep the view it answers) and 3.
    expect(statements.kinds()).toEqual(['select', 'locked read', 'update']);
  });

  it('a start from the page once the buyer went to a provider changes nothing and answers the payment as it is', async () => {
    const id = await create({ customerEmail: 'ann@example.com' });
    await hosted.startHostedSession({ id, country: 'us' }, buyer);
    await hosted.reachHostedProvider({ id, provider: 'cardrail' }, buyer);
    const { session } = await hosted.startHostedSession({ id, customerEmail: 'other@example.com', country: 'de' }, buyer);
    expect(session).toMatchObject({ status: SessionStatus.PENDING, customerEmail: 'ann@example.com', country: 'US', provider: 'cardrail' });
    const { payment: read } = await api.getCheckoutSession({ id }, merchant);
    expect(read).toMatchObject({ status: 'pending', customerEmail: 'ann@example.com' });
  });

  it('starts from the page racing each other keep one started_at (the row lock re-judges each)', async () => {
    const id = await create({ customerEmail: 'ann@example.com' });
    const views = await Promise.all([1, 2, 3, 4].map(() => hosted.startHostedSession({ id, country: 'us' }, buyer)));
    expect(views.every((v) => v.session!.started)).toBe(true);
    const { payment: read } = await api.getCheckoutSession({ id }, merchant);
    expect(read!.startedAt).toBeDefined();
    const again = await hosted.startHostedSession({ id, country: 'us' }, buyer);
    expect(again.session!.started).toBe(true);
    expect((await api.getCheckoutSession({ id }, merchant)).payment!.startedAt).toBe(read!.startedAt);
  });
});
