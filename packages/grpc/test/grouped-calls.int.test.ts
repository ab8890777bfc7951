// Risk covered: grouped calls (docs/adr/0064) answering one caller with another's answer or scope,
// merging two callers' calls under one account's metadata, losing a call's own error (code, field)
// or leaking an unexpected error's text, holding back a lone call, hanging when checkout is gone, or
// sending a call whose caller's deadline has already passed (load shedding).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { ApiError } from '@hc/errors';
import { createLogger } from '@hc/logging';
import { CheckoutService, type GetCheckoutSessionRequestSchema, type GetCheckoutSessionResponse } from '@hc/proto/checkout/v1';
import {
  answerEach,
  createGrpcServer,
  createServiceClient,
  groupedCalls,
  type CallContext,
  type GrpcServer,
  type ServiceClient,
} from '../src/index.ts';

type Read = MessageInitShape<typeof GetCheckoutSessionRequestSchema>;

const logger = createLogger('grouped-calls-test', { level: 'silent' });
let server: GrpcServer;
let client: ServiceClient<typeof CheckoutService>;
/** Each grouped call the server took: whose it was (metadata) and what it held. */
const grouped: { ctx: CallContext; ids: string[]; requestIds: string[] }[] = [];
/** How long the server takes over each grouped call, so that later calls queue behind it. */
let delayMs = 0;

beforeAll(async () => {
  server = createGrpcServer(logger);
  const notFound = async (): Promise<never> => {
    throw new ApiError('not_found');
  };
  server.add(CheckoutService, {
    async getCheckoutSessions(request, ctx) {
      grouped.push({ ctx, ids: request.calls.map((c) => c.id), requestIds: [...request.requestIds] });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      // One caller's slow group (a lock wait in its store, say).
      if (request.calls.some((c) => c.id === 'pay_slow')) await new Promise((resolve) => setTimeout(resolve, 1500));
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'GetCheckoutSessions', async (call) => {
          if (call.id === 'pay_missing') throw new ApiError('not_found', 'No such checkout session.');
          if (call.id === 'pay_bad') throw new ApiError('invalid_request', 'id is bad', 'id');
          if (call.id === 'pay_boom') throw new Error('database exploded with secret details');
          // The answer names the scope the call ran in, so a test sees it was the caller's own.
          return { payment: { id: call.id, description: ctx.accountId, mode: ctx.livemode ? 'live' : 'test', status: 'open' } };
        }),
      };
    },
    createCheckoutSession: notFound,
    getCheckoutSession: notFound,
    createCheckoutSessions: notFound,
    startCheckoutSession: notFound,
    listPayments: notFound,
    listPaymentPages: notFound,
    simulatePayment: notFound,
    getPaymentTimeline: notFound,
    markProviderReached: notFound,
    acceptHeldPayment: notFound,
    getEventsPosition: notFound,
  });
  client = createServiceClient(CheckoutService, await server.listenAt('127.0.0.1:0'));
});

afterAll(async () => {
  client.close();
  await server.stop(100);
});

beforeEach(() => {
  grouped.length = 0;
  delayMs = 0;
});

/** The end of this turn of the event loop: a call made before it has gone out (GroupedReads, ADR 0072). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function reader(target: ServiceClient<typeof CheckoutService>, maxInFlight = 1, stallMs?: number) {
  return groupedCalls<Read, GetCheckoutSessionResponse>({
    maxInFlight,
    maxGroupSize: 50,
    stallMs,
    send: (calls, requestIds, ctx) => target.getCheckoutSessions({ calls: [...calls], requestIds: [...requestIds] }, ctx),
  });
}

/** A reader whose calls have `deadlineMs` each; records the timeout each group was sent with (and sends with `sendTimeoutMs` if given). */
function readerWithDeadline(deadlineMs: number, sendTimeoutMs?: number) {
  const timeouts: (number | undefined)[] = [];
  const read = groupedCalls<Read, GetCheckoutSessionResponse>({
    maxInFlight: 1,
    maxGroupSize: 50,
    deadlineMs,
    send: (calls, requestIds, ctx, timeoutMs) => {
      timeouts.push(timeoutMs);
      return client.getCheckoutSessions({ calls: [...calls], requestIds: [...requestIds] }, ctx, { timeoutMs: sendTimeoutMs ?? timeoutMs });
    },
  });
  return { read, timeouts };
}

const shopA: CallContext = { accountId: 'acct_A', livemode: false, requestId: 'req_a' };
const shopALive: CallContext = { ...shopA, livemode: true };
const shopB: CallContext = { accountId: 'acct_B', livemode: false, requestId: 'req_b' };

describe('grouped calls', () => {
  it('send a lone call at once, alone, with its own context', async () => {
    const read = reader(client);
    const answer = await read({ id: 'pay_1' }, shopA);
    expect(answer.payment?.id).toBe('pay_1');
    expect(answer.payment?.description).toBe('acct_A');
    expect(grouped).toEqual([{ ctx: shopA, ids: ['pay_1'], requestIds: ['req_a'] }]);
  });

  it('group the calls made while a grouped call is in flight, each answered with its own answer, in order', async () => {
    delayMs = 100;
    const read = reader(client);
    const first = read({ id: 'pay_first' }, shopA);
    await nextTurn();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ids = Array.from({ length: 30 }, (_, i) => `pay_${i}`);
    const answers = await Promise.all(ids.map((id, i) => read({ id }, { ...shopA, requestId: `req_${i}` })));
    expect((await first).payment?.id).toBe('pay_first');
    expect(answers.map((a) => a.payment?.id)).toEqual(ids);
    // One call for the first, one grouped call for the thirty that waited behind it.
    expect(grouped.map((g) => g.ids.length)).toEqual([1, 30]);
    expect(grouped[1]!.requestIds).toEqual(ids.map((_, i) => `req_${i}`));
  });

  it("with stallMs, do not hold other callers' calls behind one caller's slow grouped call", async () => {
    const read = reader(client, 1, 50);
    const finished: string[] = [];
    const slow = read({ id: 'pay_slow' }, shopA).then(() => finished.push('slow'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const others = Promise.all([read({ id: 'pay_b1' }, shopB), read({ id: 'pay_b2' }, shopB)]).then(() => finished.push('others'));
    await Promise.all([slow, others]);
    expect(finished).toEqual(['others', 'slow']);
    expect(grouped.map((g) => g.ids)).toEqual([['pay_slow'], ['pay_b1', 'pay_b2']]);
  });

  it('without stallMs, the calls behind a slow grouped call wait for it (the setting is what steps around it)', async () => {
    const read = reader(client, 1);
    const finished: string[] = [];
    const slow = read({ id: 'pay_slow' }, shopA).then(() => finished.push('slow'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const other = read({ id: 'pay_b1' }, shopB).then(() => finished.push('other'));
    await Promise.all([slow, other]);
    expect(finished).toEqual(['slow', 'other']);
  });

  it('send one grouped call per caller: account and mode come from each call, never from a neighbour', async () => {
    delayMs = 50;
    const read = reader(client);
    const first = read({ id: 'pay_first' }, shopA);
    await nextTurn();
    const mixed = await Promise.all([
      read({ id: 'pay_a1' }, shopA),
      read({ id: 'pay_b1' }, shopB),
      read({ id: 'pay_l1' }, shopALive),
      read({ id: 'pay_b2' }, shopB),
    ]);
    await first;
    expect(mixed.map((a) => [a.payment?.id, a.payment?.description, a.payment?.mode])).toEqual([
      ['pay_a1', 'acct_A', 'test'],
      ['pay_b1', 'acct_B', 'test'],
      ['pay_l1', 'acct_A', 'live'],
      ['pay_b2', 'acct_B', 'test'],
    ]);
    const later = grouped.slice(1).map((g) => [g.ctx.accountId, g.ctx.livemode, g.ids]);
    expect(later).toEqual(
      expect.arrayContaining([
        ['acct_A', false, ['pay_a1']],
        ['acct_B', false, ['pay_b1', 'pay_b2']],
        ['acct_A', true, ['pay_l1']],
      ]),
    );
    expect(later).toHaveLength(3);
  });

  it("fail only the call that failed, with its code and field; an unexpected error's text never leaves the service", async () => {
    delayMs = 50;
    const read = reader(client);
    const first = read({ id: 'pay_first' }, shopA);
    await nextTurn();
    const settled = await Promise.allSettled([
      read({ id: 'pay_ok' }, shopA),
      read({ id: 'pay_missing' }, shopA),
      read({ id: 'pay_bad' }, shopA),
      read({ id: 'pay_boom' }, shopA),
    ]);
    await first;
    expect(grouped).toHaveLength(2);
    expect(settled[0]).toMatchObject({ status: 'fulfilled', value: { payment: { id: 'pay_ok' } } });
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: { code: 'not_found', message: 'No such checkout session.' } });
    expect(settled[2]).toMatchObject({ status: 'rejected', reason: { code: 'invalid_request', field: 'id' } });
    expect(settled[3]).toMatchObject({ status: 'rejected', reason: { code: 'internal_error' } });
    const boom = settled[3] as PromiseRejectedResult;
    expect(boom.reason).toBeInstanceOf(ApiError);
    expect(String((boom.reason as Error).message)).not.toMatch(/secret/);
  });

  it('answer every call of a group service_unavailable, within the deadline, when checkout cannot be reached', async () => {
    const gone = createServiceClient(CheckoutService, '127.0.0.1:1', { timeoutMs: 1_000 });
    try {
      const read = reader(gone);
      const started = Date.now();
      const settled = await Promise.allSettled([read({ id: 'pay_1' }, shopA), read({ id: 'pay_2' }, shopA), read({ id: 'pay_3' }, shopB)]);
      expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as ApiError).code : 'answered'))).toEqual([
        'service_unavailable',
        'service_unavailable',
        'service_unavailable',
      ]);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      gone.close();
    }
  });

  it('with deadlineMs, answer a call still waiting when its deadline passes service_unavailable at once, and never send it', async () => {
    // The test's own deadline for the groups, longer than the calls': the slow group stays in flight past them.
    const { read, timeouts } = readerWithDeadline(400, 5_000);
    let slowAnswered = false;
    const slow = read({ id: 'pay_slow' }, shopA).then(() => (slowAnswered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const began = Date.now();
    const late = await read({ id: 'pay_late' }, shopB).then(
      () => 'answered',
      (error: ApiError) => error.code,
    );
    expect(late).toBe('service_unavailable');
    // Failed at its own deadline, not when the slow group ended (about 1.5 s).
    expect(Date.now() - began).toBeGreaterThanOrEqual(370);
    expect(slowAnswered).toBe(false);
    await slow;
    expect(grouped.map((g) => g.ids)).toEqual([['pay_slow']]);
    expect(timeouts).toHaveLength(1);
    expect(timeouts[0]).toBeGreaterThan(300);
    expect(timeouts[0]).toBeLessThanOrEqual(400);
  });

  it('with deadlineMs, send a group with what is left of its oldest call’s deadline', async () => {
    delayMs = 200;
    const { read, timeouts } = readerWithDeadline(1_000);
    const first = read({ id: 'pay_first' }, shopA);
    await nextTurn();
    const second = read({ id: 'pay_second' }, shopA);
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
    expect(grouped.map((g) => g.ids)).toEqual([['pay_first'], ['pay_second']]);
    // The second waited about 200 ms behind the first: that much less of its time was left to send it with.
    expect(timeouts[0]).toBeGreaterThan(900);
    expect(timeouts[1]).toBeLessThanOrEqual(timeouts[0]! - 150);
    expect(timeouts[1]).toBeGreaterThan(0);
  });

  it('never merge two calls, even for the same id: each gets an answer of its own', async () => {
    delayMs = 50;
    const read = reader(client);
    const first = read({ id: 'pay_first' }, shopA);
    await nextTurn();
    const [one, two] = await Promise.all([read({ id: 'pay_same' }, shopA), read({ id: 'pay_same' }, { ...shopA, requestId: 'req_other' })]);
    await first;
    expect(one.payment?.id).toBe('pay_same');
    expect(two.payment?.id).toBe('pay_same');
    expect(one).not.toBe(two);
    expect(grouped[1]!.ids).toEqual(['pay_same', 'pay_same']);
  });

  it('a service that answers fewer outcomes than calls fails the unanswered ones as internal errors', async () => {
    const short = groupedCalls<Read, GetCheckoutSessionResponse>({
      maxInFlight: 1,
      maxGroupSize: 50,
      send: async (calls, requestIds, ctx) => {
        const answer = await client.getCheckoutSessions({ calls: [...calls], requestIds: [...requestIds] }, ctx);
        return { outcomes: answer.outcomes.slice(0, 1) };
      },
    });
    delayMs = 50;
    const first = short({ id: 'pay_first' }, shopA);
    await nextTurn();
    const settled = await Promise.allSettled([short({ id: 'pay_x' }, shopA), short({ id: 'pay_y' }, shopA)]);
    await first;
    expect(settled[0]).toMatchObject({ status: 'fulfilled' });
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: { code: 'internal_error' } });
  });
});
