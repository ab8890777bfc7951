// Risk covered: payment lists grouped into one call to checkout (ListPaymentPages, docs/batching.md),
// and customer lists into one call to customers (ListCustomerPages),
// answering a merchant with another list's page, losing one list's error among the others' pages,
// mixing two accounts' lists in one call, or failing every list while checkout is of the previous
// release (a rolling upgrade: no ListPaymentPages there), where each list must still be answered alone.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { answerEach, createGrpcServer, createServiceClient, type CallContext, type GrpcServer, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService, type ListPaymentsRequest } from '@hc/proto/checkout/v1';
import { CustomersService, type ListCustomersRequest } from '@hc/proto/customers/v1';
import { groupedCheckoutClient } from '../src/adapters/checkout-client.ts';
import { groupedCustomersClient } from '../src/adapters/customers-client.ts';

const logger = createLogger('grouped-lists-test', { level: 'silent' });
const shop: CallContext = { accountId: 'acct_lists', livemode: false, requestId: 'req_1' };
const otherShop: CallContext = { accountId: 'acct_lists_other', livemode: false, requestId: 'req_2' };

/** A page that says which list it answers: one payment whose reference names the caller, limit and cursor. */
async function pageOf(request: ListPaymentsRequest, ctx: CallContext) {
  if (request.startingAfter === 'pay_unknown') throw new ApiError('invalid_cursor', undefined, 'starting_after');
  const reference = `${ctx.accountId}/${request.limit}/${request.startingAfter ?? '-'}`;
  return { hasMore: false, data: [{ id: `pay_${request.limit}`, reference, status: 'open', mode: 'test' }] };
}

/** A checkout stand-in over real gRPC: lists answered by pageOf, grouped or alone, every call counted. */
async function standIn(grouped: boolean): Promise<{ server: GrpcServer; address: string; calls: { grouped: number[]; single: number } }> {
  const calls = { grouped: [] as number[], single: 0 };
  const refuse = async (): Promise<never> => {
    throw new Error('not part of this test');
  };
  const server = createGrpcServer(logger);
  server.add(CheckoutService, {
    async listPayments(request, ctx) {
      calls.single += 1;
      return pageOf(request, ctx);
    },
    async listPaymentPages(request, ctx) {
      calls.grouped.push(request.calls.length);
      // The previous release has no such method: grpc-js answers UNIMPLEMENTED, read as internal_error.
      if (!grouped) return refuse();
      return { outcomes: await answerEach(request.calls, request.requestIds, logger, 'ListPaymentPages', (call) => pageOf(call, ctx)) };
    },
    createCheckoutSession: refuse,
    getCheckoutSession: refuse,
    createCheckoutSessions: refuse,
    getCheckoutSessions: refuse,
    startCheckoutSession: refuse,
    simulatePayment: refuse,
    markProviderReached: refuse,
    acceptHeldPayment: refuse,
    getPaymentTimeline: refuse,
    getEventsPosition: refuse,
  });
  return { server, address: await server.listenAt('127.0.0.1:0'), calls };
}

const referenceOf = (page: { data: { reference?: string }[] }) => page.data[0]?.reference;

describe.each([
  ['a checkout that groups lists', true],
  ['a checkout of the previous release (no ListPaymentPages)', false],
])('%s', (_name, grouped) => {
  let stand: Awaited<ReturnType<typeof standIn>>;
  let raw: ServiceClient<typeof CheckoutService>;
  let client: ServiceClient<typeof CheckoutService>;

  beforeAll(async () => {
    stand = await standIn(grouped);
    raw = createServiceClient(CheckoutService, stand.address);
    client = groupedCheckoutClient(raw, { inFlight: 1, stallMs: 100, deadlineMs: 5_000 }, logger);
  });
  afterAll(async () => {
    raw.close();
    await stand.server.stop(100);
  });

  it('answers each of lists made at once with its own page or error, each caller apart', async () => {
    const lists = [
      client.listPayments({ limit: 20 }, shop),
      client.listPayments({ limit: 5, startingAfter: 'pay_a' }, shop),
      client.listPayments({ limit: 7, startingAfter: 'pay_unknown' }, shop),
      client.listPayments({ limit: 20 }, otherShop),
      client.listPayments({ limit: 3 }, shop),
    ];
    const settled = await Promise.allSettled(lists);
    const answers = settled.map((one) => (one.status === 'fulfilled' ? referenceOf(one.value) : one.reason));
    expect(answers).toEqual([
      'acct_lists/20/-',
      'acct_lists/5/pay_a',
      expect.objectContaining({ code: 'invalid_cursor', field: 'starting_after' }),
      'acct_lists_other/20/-',
      'acct_lists/3/-',
    ]);
    // One grouped call per caller: the shop's four lists together, the other shop's alone.
    expect([...stand.calls.grouped].sort()).toEqual([1, 4]);
    expect(stand.calls.single).toBe(grouped ? 0 : 5);
  });

  it('sends a list with options of its own (a deadline) alone', async () => {
    const before = { ...stand.calls, grouped: stand.calls.grouped.length };
    const page = await client.listPayments({ limit: 9 }, shop, { timeoutMs: 5_000 });
    expect(referenceOf(page)).toBe('acct_lists/9/-');
    expect(stand.calls.grouped).toHaveLength(before.grouped);
    expect(stand.calls.single).toBe(before.single + 1);
  });
});

describe('customer lists, grouped to the customers service (ListCustomerPages)', () => {
  const WAITING = { timeoutMs: 4_000 };
  const calls = { grouped: [] as number[], single: [] as (number | undefined)[] };
  let server: GrpcServer;
  let raw: ServiceClient<typeof CustomersService>;
  let client: ServiceClient<typeof CustomersService>;

  /** A page naming the list it answers; a barrier's wait_ms is echoed so a test sees it arrived. */
  async function customersOf(request: ListCustomersRequest, ctx: CallContext) {
    if (request.email === 'bad') throw new ApiError('invalid_email', undefined, 'email');
    return { hasMore: false, customers: [{ id: `cus_${request.limit}`, email: `${ctx.accountId}/${request.barrier?.waitMs ?? '-'}` }] };
  }

  beforeAll(async () => {
    const refuse = async (): Promise<never> => {
      throw new Error('not part of this test');
    };
    server = createGrpcServer(logger);
    server.add(CustomersService, {
      async listCustomers(request, ctx) {
        calls.single.push(request.limit);
        return customersOf(request, ctx);
      },
      async listCustomerPages(request, ctx) {
        calls.grouped.push(request.calls.length);
        return {
          outcomes: await answerEach(request.calls, request.requestIds, logger, 'ListCustomerPages', (call) => customersOf(call, ctx)),
        };
      },
      getCustomer: refuse,
      getOrder: refuse,
      listOrders: refuse,
      eraseCustomer: refuse,
      setCustomerNote: refuse,
      getCustomerNote: refuse,
    });
    raw = createServiceClient(CustomersService, await server.listenAt('127.0.0.1:0'));
    client = groupedCustomersClient(raw, { inFlight: 1, stallMs: 100, deadlineMs: 5_000 }, WAITING.timeoutMs, logger);
  });
  afterAll(async () => {
    raw.close();
    await server.stop(100);
  });

  it('groups the lists asking the waiting deadline, each answered with its own page or error, its barrier kept', async () => {
    const barrier = { checkoutSequence: 7n, waitMs: 1_500 };
    const settled = await Promise.allSettled([
      client.listCustomers({ limit: 20, barrier }, shop, WAITING),
      client.listCustomers({ limit: 3, email: 'bad' }, shop, WAITING),
      client.listCustomers({ limit: 4 }, otherShop, WAITING),
      client.listCustomers({ limit: 5 }, shop, { timeoutMs: 1_000 }),
    ]);
    expect(settled.map((one) => (one.status === 'fulfilled' ? one.value.customers[0]?.email : one.reason))).toEqual([
      'acct_lists/1500',
      expect.objectContaining({ code: 'invalid_email', field: 'email' }),
      'acct_lists_other/-',
      'acct_lists/-',
    ]);
    // The shop's two waiting lists in one grouped call, the other shop's in its own; the list with a
    // deadline of its own went alone.
    expect([...calls.grouped].sort()).toEqual([1, 2]);
    expect(calls.single).toEqual([5]);
  });
});
