// Risk covered: the local platform's gateway at two copies (PLATFORM_REPLICAS=gateway, e2e/test/faults-many.e2e.test.ts):
// the front router sending every request to one copy, or on a copy's loss answering the API's clients a bare
// 502 (not in docs/api-errors.md) or nothing, or going on sending requests to the lost copy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { gatewayPool, startFrontRouter } from '../src/front-router.ts';

let gateways: Server[];
let router: { url: string; stop(): Promise<void> };

const listen = async (name: string): Promise<Server> => {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
};
const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  gateways = [await listen('gateway'), await listen('gateway-2')];
  router = await startFrontRouter({
    host: '127.0.0.1',
    port: 0,
    gatewayUrl: urlOf(gateways[0]!),
    gatewayReplicaUrls: [urlOf(gateways[1]!)],
    // No pages here: a page request finds its backend gone.
    pagesUrl: 'http://127.0.0.1:1',
  });
});

afterAll(async () => {
  await router.stop();
  for (const server of gateways) if (server.listening) await new Promise((resolve) => server.close(resolve));
});

const answer = async (path: string): Promise<{ status: number; body: string }> => {
  const response = await fetch(`${router.url}${path}`, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: await response.text() };
};

it('turns the API requests over both gateways, and over the one left when the other is gone, with the documented 503 meanwhile', async () => {
  const spread = await Promise.all(Array.from({ length: 6 }, () => answer('/v1/payments')));
  expect(spread.map((a) => JSON.parse(a.body).name).sort()).toEqual([
    'gateway',
    'gateway',
    'gateway',
    'gateway-2',
    'gateway-2',
    'gateway-2',
  ]);

  gateways[0]!.closeAllConnections();
  await new Promise((resolve) => gateways[0]!.close(resolve));
  const after = [];
  for (let i = 0; i < 8; i += 1) after.push(await answer('/v1/payments'));
  // At most the request that found the copy gone is answered 503 service_unavailable (the API's shape, a client retries it); the rest go to gateway-2.
  const lost = after.filter((a) => a.status !== 200);
  expect(lost.length).toBeLessThanOrEqual(1);
  for (const a of lost)
    expect({ status: a.status, code: JSON.parse(a.body).error.code }).toEqual({ status: 503, code: 'service_unavailable' });
  expect(after.filter((a) => a.status === 200).every((a) => JSON.parse(a.body).name === 'gateway-2')).toBe(true);
  // A page whose backend is gone stays a plain 502 page.
  expect(await answer('/pay/anything')).toEqual({ status: 502, body: 'Bad gateway\n' });
});

it('passes over a copy that just failed for a second, then tries it again', () => {
  let now = 0;
  const pool = gatewayPool(['a', 'b'], () => now);
  expect([pool.pick(), pool.pick(), pool.pick()]).toEqual(['a', 'b', 'a']);
  pool.failed('a');
  expect([pool.pick(), pool.pick(), pool.pick()]).toEqual(['b', 'b', 'b']);
  now = 1_000;
  expect([pool.pick(), pool.pick()].sort()).toEqual(['a', 'b']);
  // Every copy failed: requests still go somewhere (in turn) rather than nowhere.
  pool.failed('a');
  pool.failed('b');
  expect([pool.pick(), pool.pick()].sort()).toEqual(['a', 'b']);
});
