// Risk covered: the client giving up on a 429/503 it should retry, retrying a create without the
// same Idempotency-Key (two sessions), ignoring Retry-After, or retrying a non-idempotent write;
// over a real local HTTP server (issue 29).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { createClient, HostedCheckoutApiError } from '../src/index.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.close();
  if (server) await once(server, 'close');
  server = undefined;
});

/** A server that answers each request with the next of `answers`, recording what it received. */
async function serve(
  answers: { status: number; headers?: Record<string, string>; body: unknown }[],
): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  server = createServer((req, res) => {
    seen.push(req);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    req.resume();
    res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}`, ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const SESSION = { id: 'pay_1', object: 'checkout_session' };
const unavailable = { status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 'service_unavailable', message: 'down' } } };

describe('retries', () => {
  it('retries a create on 503 with the same generated Idempotency-Key, honouring Retry-After', async () => {
    const { url, seen } = await serve([unavailable, unavailable, { status: 201, body: SESSION }]);
    const client = createClient({ apiKey: 'sk_test_x', baseUrl: url });
    expect(await client.checkoutSessions.create({ amount: '1.00', currency: 'USD', description: 'Mug' })).toEqual(SESSION);
    const keys = seen.map((req) => req.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.every((req) => req.headers.authorization === 'Bearer sk_test_x')).toBe(true);
  });

  it('waits as long as Retry-After says (within maxRetryDelayMs)', async () => {
    const { url, seen } = await serve([
      { ...unavailable, headers: { 'retry-after': '1' } },
      { status: 200, body: SESSION },
    ]);
    const started = Date.now();
    await createClient({ apiKey: 'k', baseUrl: url }).checkoutSessions.retrieve('pay_1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);
  });

  it('gives up after maxRetries with the typed error, and never retries a write without a key', async () => {
    const { url, seen } = await serve([
      { status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'rate_limited', message: 'slow' } } },
    ]);
    const client = createClient({ apiKey: 'k', baseUrl: url, maxNetworkRetries: 1 });
    const error = await client.payments.retrieve('pay_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostedCheckoutApiError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req_2' });
    expect(seen).toHaveLength(2);
    await expect(client.payments.simulate('pay_1', 'paid')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(seen).toHaveLength(3);
  });

  it('answers 4xx errors at once with code and field', async () => {
    const { url, seen } = await serve([{ status: 400, body: { error: { code: 'invalid_amount', message: 'bad', field: 'amount' } } }]);
    const client = createClient({ apiKey: 'k', baseUrl: url });
    await expect(client.checkoutSessions.create({ amount: 'x', currency: 'USD', description: 'Mug' })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_amount',
      field: 'amount',
    });
    expect(seen).toHaveLength(1);
  });
});

describe('paging', () => {
  it('walks every page with for await, sending each next_cursor as starting_after', async () => {
    const { url, seen } = await serve([
      { status: 200, body: { data: [{ id: 'pay_3' }, { id: 'pay_2' }], has_more: true, next_cursor: 'pay_2' } },
      { status: 200, body: { data: [{ id: 'pay_1' }], has_more: false, next_cursor: null } },
    ]);
    const ids: string[] = [];
    for await (const payment of createClient({ apiKey: 'k', baseUrl: url }).payments.list({ status: 'paid', limit: 2 }))
      ids.push(payment.id);
    expect(ids).toEqual(['pay_3', 'pay_2', 'pay_1']);
    expect(seen.map((req) => req.url)).toEqual([
      '/v1/payments?status=paid&limit=2',
      '/v1/payments?status=paid&limit=2&starting_after=pay_2',
    ]);
  });
});
