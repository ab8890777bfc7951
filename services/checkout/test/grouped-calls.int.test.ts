// Risk covered: checkout's grouped calls (CreateCheckoutSessions, GetCheckoutSessions, ListPaymentPages;
// docs/adr/0064), over real gRPC and PostgreSQL, answering a call differently from its single call: a
// session of another account or mode found or listed, a refused create stored or failing its
// neighbours, one id created twice, an expired payment read as open, or outcomes out of order.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const shop: CallContext = { accountId: 'acct_grouped', livemode: false, requestId: 'req_g' };
const live: CallContext = { ...shop, livemode: true };
const other: CallContext = { ...shop, accountId: 'acct_grouped_other' };
const order = { amount: '25', currency: 'eur', description: 'Blue mug' };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;

beforeAll(async () => {
  stack = await startCheckoutStack(createLogger('checkout-grouped-test', { level: 'silent' }));
  stack.clock.set(new Date('2026-03-01T12:00:00.000Z'));
  client = createServiceClient(CheckoutService, stack.checkout.address);
});

afterAll(async () => {
  client.close();
  await stack.stop();
});

const outcomeOf = (o: { outcome: { case: string | undefined; value?: unknown } }) =>
  o.outcome.case === 'failure' ? { failure: o.outcome.value } : o.outcome.case;

describe('CreateCheckoutSessions', () => {
  it('creates each valid call as its single call would, and refuses only the bad one, storing nothing of it', async () => {
    const before = await client.listPayments({ limit: 100 }, shop);
    const { outcomes } = await client.createCheckoutSessions(
      {
        calls: [
          { ...order, reference: 'G-1' },
          { ...order, amount: '-1', reference: 'G-2' },
          { ...order, reference: 'G-3', customerEmail: 'Ann@Example.com' },
        ],
        requestIds: ['req_1', 'req_2', 'req_3'],
      },
      shop,
    );
    expect(outcomes.map(outcomeOf)).toEqual([
      'answer',
      { failure: expect.objectContaining({ code: 'invalid_amount', field: 'amount' }) },
      'answer',
    ]);
    const made = outcomes.flatMap((o) => (o.outcome.case === 'answer' ? [o.outcome.value] : []));
    expect(made.map((m) => [m.created, m.payment?.reference, m.payment?.status])).toEqual([
      [true, 'G-1', 'open'],
      [true, 'G-3', 'open'],
    ]);
    expect(made[1]!.payment?.customerEmail).toBe('ann@example.com');
    const after = await client.listPayments({ limit: 100 }, shop);
    expect(after.data.length - before.data.length).toBe(2);
    expect(after.data.map((p) => p.reference)).not.toContain('G-2');
  });

  it('writes a preset id once: the same id twice in one group is created by one call and found by the other', async () => {
    const id = newId('payment');
    const { outcomes } = await client.createCheckoutSessions(
      {
        calls: [
          { ...order, id },
          { ...order, id },
        ],
        requestIds: ['a', 'b'],
      },
      shop,
    );
    const answers = outcomes.map((o) => (o.outcome.case === 'answer' ? o.outcome.value : undefined));
    expect(answers.map((a) => a?.payment?.id)).toEqual([id, id]);
    expect(answers.filter((a) => a?.created)).toHaveLength(1);
    const again = await client.createCheckoutSessions({ calls: [{ ...order, id }], requestIds: ['c'] }, shop);
    expect(again.outcomes[0]!.outcome).toMatchObject({ case: 'answer', value: { created: false, payment: { id } } });
  });

  it('creates in the metadata’s mode: a Live create without a payout wallet is refused', async () => {
    const [refused] = (await client.createCheckoutSessions({ calls: [order], requestIds: ['l'] }, live)).outcomes;
    expect(refused!.outcome).toMatchObject({ case: 'failure', value: { code: 'no_payout_wallet' } });
  });
});

describe('GetCheckoutSessions', () => {
  let mine: Payment;
  let theirs: Payment;
  let due: Payment;

  beforeAll(async () => {
    mine = (await client.createCheckoutSession(order, shop)).payment!;
    theirs = (await client.createCheckoutSession(order, other)).payment!;
    stack.clock.advance(-86_400_000);
    due = (await client.createCheckoutSession(order, shop)).payment!;
    stack.clock.advance(86_400_000);
  });

  it('answers each read in order, only within the caller’s account and mode', async () => {
    const { outcomes } = await client.getCheckoutSessions(
      { calls: [{ id: mine.id }, { id: theirs.id }, { id: 'not-an-id' }, { id: mine.id }], requestIds: ['1', '2', '3', '4'] },
      shop,
    );
    expect(outcomes.map(outcomeOf)).toEqual([
      'answer',
      { failure: expect.objectContaining({ code: 'not_found' }) },
      { failure: expect.objectContaining({ code: 'not_found' }) },
      'answer',
    ]);
    expect(outcomes[0]!.outcome.value).toMatchObject({ payment: { id: mine.id, status: 'open' } });
    const liveRead = await client.getCheckoutSessions({ calls: [{ id: mine.id }], requestIds: ['5'] }, live);
    expect(liveRead.outcomes[0]!.outcome).toMatchObject({ case: 'failure', value: { code: 'not_found' } });
  });

  it('expires an unpaid payment read past its expiry, as a single read does', async () => {
    const { outcomes } = await client.getCheckoutSessions({ calls: [{ id: due.id }, { id: mine.id }], requestIds: ['e', 'f'] }, shop);
    expect(outcomes[0]!.outcome).toMatchObject({ case: 'answer', value: { payment: { id: due.id, status: 'expired' } } });
    expect(outcomes[1]!.outcome).toMatchObject({ case: 'answer', value: { payment: { id: mine.id, status: 'open' } } });
    const single = await client.getCheckoutSession({ id: due.id }, shop);
    expect(single.payment?.status).toBe('expired');
  });

  it('answers an empty group with no outcomes', async () => {
    expect((await client.getCheckoutSessions({ calls: [], requestIds: [] }, shop)).outcomes).toEqual([]);
  });
});

describe('ListPaymentPages', () => {
  const lister: CallContext = { ...shop, accountId: 'acct_grouped_lists' };
  let made: Payment[];
  let stranger: Payment;

  beforeAll(async () => {
    made = [];
    for (const reference of ['L-1', 'L-2', 'L-3', 'L-4']) {
      made.push((await client.createCheckoutSession({ ...order, reference }, lister)).payment!);
      stack.clock.advance(1_000);
    }
    stranger = (await client.createCheckoutSession(order, other)).payment!;
  });

  const references = (answer: unknown) => (answer as { data: Payment[] }).data.map((payment) => payment.reference);

  it('answers each list in order as its single call does: pages, cursors and filters of the caller only', async () => {
    const calls = [
      { limit: 2 },
      { limit: 2, startingAfter: made[2]!.id },
      { limit: 10, reference: 'L-3' },
      { limit: 10, startingAfter: stranger.id },
      { limit: 10, status: 'unheard-of' },
      { limit: 10 },
    ];
    const { outcomes } = await client.listPaymentPages({ calls, requestIds: calls.map((_, index) => `l${index}`) }, lister);
    expect(outcomes.map(outcomeOf)).toEqual([
      'answer',
      'answer',
      'answer',
      { failure: expect.objectContaining({ code: 'invalid_cursor', field: 'starting_after' }) },
      { failure: expect.objectContaining({ code: 'invalid_request', field: 'status' }) },
      'answer',
    ]);
    expect(references(outcomes[0]!.outcome.value)).toEqual(['L-4', 'L-3']);
    expect(outcomes[0]!.outcome.value).toMatchObject({ hasMore: true });
    expect(references(outcomes[1]!.outcome.value)).toEqual(['L-2', 'L-1']);
    expect(outcomes[1]!.outcome.value).toMatchObject({ hasMore: false });
    expect(references(outcomes[2]!.outcome.value)).toEqual(['L-3']);
    expect(references(outcomes[5]!.outcome.value)).toEqual(['L-4', 'L-3', 'L-2', 'L-1']);
    for (const index of [0, 1, 5]) {
      const single = await client.listPayments(calls[index]!, lister);
      expect(outcomes[index]!.outcome.value).toEqual(single);
    }
  });

  it('lists in the metadata’s account and mode only', async () => {
    const [liveList, otherList] = await Promise.all([
      client.listPaymentPages({ calls: [{ limit: 10 }], requestIds: ['lv'] }, { ...lister, livemode: true }),
      client.listPaymentPages({ calls: [{ limit: 10 }], requestIds: ['lo'] }, other),
    ]);
    expect(liveList.outcomes[0]!.outcome).toMatchObject({ case: 'answer', value: { data: [], hasMore: false } });
    const otherIds = (otherList.outcomes[0]!.outcome.value as { data: Payment[] }).data.map((payment) => payment.id);
    expect(otherIds).toContain(stranger.id);
    expect(otherIds).not.toEqual(expect.arrayContaining([made[0]!.id]));
  });
});
