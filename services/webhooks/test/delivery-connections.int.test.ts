// Risk covered (docs/adr/0111): kept-alive delivery connections that send to an address the SSRF check
// did not pass for this attempt, a delivery lost or recorded as failed because the receiver closed an
// idle connection just as we sent on it, a connection reused after a response we did not read to its
// end, or connections left open (idle ones past a receiver's keep-alive, or after the service stops).
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { DeliveryConnections, IDLE_CONNECTION_MS } from '../src/adapters/delivery-connections.ts';
import { sendHttpAttempt } from '../src/adapters/http-sender.ts';
import type { ResolvedAddress } from '../src/adapters/target-resolver.ts';
import { selfSignedCertificate } from './support/tls.ts';

const LOOPBACK: ResolvedAddress = { address: '127.0.0.1', family: 4 };

/** A receiver that counts the connections it accepted and the requests each carried. */
interface CountingReceiver {
  readonly url: (path: string) => URL;
  readonly connections: () => number;
  readonly requests: () => number;
  stop(): Promise<void>;
}

async function countingReceiver(
  answer: (request: IncomingMessage, response: ServerResponse, onConnection: number) => void,
  tls?: { key: string; cert: string; hostname: string },
): Promise<CountingReceiver> {
  let connections = 0;
  let requests = 0;
  const perSocket = new WeakMap<Socket, number>();
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    requests += 1;
    const nth = (perSocket.get(request.socket) ?? 0) + 1;
    perSocket.set(request.socket, nth);
    request.resume();
    request.on('end', () => answer(request, response, nth));
  };
  const server: Server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler) : createHttpServer(handler);
  server.on(tls ? 'secureConnection' : 'connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = tls ? tls.hostname : '127.0.0.1';
  return {
    url: (path) => new URL(`${tls ? 'https' : 'http'}://${host}:${port}${path}`),
    connections: () => connections,
    requests: () => requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ok = (_request: IncomingMessage, response: ServerResponse): void => void response.end('ok');

let pool: DeliveryConnections;
let receiver: CountingReceiver | undefined;
afterEach(async () => {
  pool?.close();
  await receiver?.stop();
  receiver = undefined;
});

function send(url: URL, options: { ca?: string; address?: ResolvedAddress; timeoutMs?: number } = {}) {
  const address = options.address ?? LOOPBACK;
  return sendHttpAttempt({
    url,
    address,
    headers: { 'content-type': 'application/json' },
    body: '{"id":"evt_1"}',
    timeoutMs: options.timeoutMs ?? 5_000,
    ca: options.ca,
    agent: pool.agentFor(url, address, options.ca),
  });
}

describe('kept-alive delivery connections', () => {
  it('sends one endpoint several deliveries over one connection', async () => {
    pool = new DeliveryConnections();
    receiver = await countingReceiver(ok);
    for (let i = 0; i < 3; i++)
      expect(await send(receiver.url('/hooks'))).toMatchObject({ kind: 'response', statusCode: 200, snippet: 'ok' });
    expect(receiver.requests()).toBe(3);
    expect(receiver.connections()).toBe(1);
    expect(pool.openConnections()).toBe(1);
  });

  it('reuses a TLS connection too: one handshake for several deliveries to an https endpoint', async () => {
    pool = new DeliveryConnections();
    const hostname = 'hooks.shop.test';
    const certificate = selfSignedCertificate(hostname);
    receiver = await countingReceiver(ok, { ...certificate, hostname });
    for (let i = 0; i < 3; i++) {
      expect(await send(receiver.url('/hooks'), { ca: certificate.cert })).toMatchObject({ kind: 'response', statusCode: 200 });
    }
    expect(receiver.connections()).toBe(1);
  });

  it('keeps one pool per checked address: a name that now resolves elsewhere never gets the old connection', () => {
    pool = new DeliveryConnections();
    const url = new URL('https://hooks.shop.test/hooks');
    const first = pool.agentFor(url, { address: '203.0.113.7', family: 4 });
    expect(pool.agentFor(url, { address: '203.0.113.7', family: 4 })).toBe(first);
    expect(pool.agentFor(url, { address: '203.0.113.8', family: 4 })).not.toBe(first);
    expect(pool.agentFor(new URL('https://hooks.shop.test:8443/hooks'), { address: '203.0.113.7', family: 4 })).not.toBe(first);
    expect(pool.agentFor(url, { address: '203.0.113.7', family: 4 }, 'a trusted CA')).not.toBe(first);
  });

  it('sends again on a new connection when the receiver closed the kept-alive one as we sent (no failed attempt)', async () => {
    pool = new DeliveryConnections();
    // The second request on a connection is met with a reset, as when a receiver's keep-alive timer
    // closes it just as our request arrives.
    receiver = await countingReceiver((request, response, nth) => {
      if (nth === 2) request.socket.resetAndDestroy();
      else response.end('ok');
    });
    expect(await send(receiver.url('/hooks'))).toMatchObject({ kind: 'response', statusCode: 200 });
    expect(await send(receiver.url('/hooks'))).toMatchObject({ kind: 'response', statusCode: 200 });
    expect(receiver.connections()).toBe(2);
    expect(receiver.requests()).toBe(3);
  });

  it('does not send again when a fresh connection is reset: that is the attempt failing', async () => {
    pool = new DeliveryConnections();
    receiver = await countingReceiver((request) => request.socket.resetAndDestroy());
    expect(await send(receiver.url('/hooks'))).toEqual({ kind: 'error', error: 'ECONNRESET' });
    expect(receiver.requests()).toBe(1);
  });

  it('closes a connection whose long answer it did not read to the end, instead of reusing it', async () => {
    pool = new DeliveryConnections();
    receiver = await countingReceiver((_request, response) => response.end('x'.repeat(64 * 1024)));
    const first = await send(receiver.url('/hooks'));
    expect(first).toMatchObject({ kind: 'response', statusCode: 200 });
    expect(first.kind === 'response' && first.snippet.length).toBe(1024);
    await send(receiver.url('/hooks'));
    expect(receiver.connections()).toBe(2);
  });

  it('bounds the whole attempt by its timeout, and does not reuse the connection that timed out', async () => {
    pool = new DeliveryConnections();
    let answered = 0;
    receiver = await countingReceiver((_request, response) => {
      if ((answered += 1) === 1) setTimeout(() => response.end('late'), 2_000);
      else response.end('ok');
    });
    const started = performance.now();
    expect(await send(receiver.url('/hooks'), { timeoutMs: 300 })).toEqual({ kind: 'error', error: 'timeout after 300 ms' });
    // Under the receiver's late answer (2 s): the attempt was cut at its timeout, with room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(1_900);
    expect(await send(receiver.url('/hooks'))).toMatchObject({ kind: 'response', statusCode: 200, snippet: 'ok' });
    expect(receiver.connections()).toBe(2);
  });

  it('closes idle connections before a receiver with a 5 s keep-alive would, and all of them when stopped', async () => {
    pool = new DeliveryConnections();
    receiver = await countingReceiver(ok);
    await Promise.all([send(receiver.url('/a')), send(receiver.url('/b'))]);
    expect(pool.openConnections()).toBe(2);
    const deadline = performance.now() + IDLE_CONNECTION_MS + 2_000;
    while (pool.openConnections() > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.openConnections()).toBe(0);

    await send(receiver.url('/c'));
    expect(pool.openConnections()).toBe(1);
    pool.close();
    expect(pool.openConnections()).toBe(0);
  }, 15_000);
});
