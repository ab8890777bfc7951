// Risk covered: NATS going away under a running relay — the process crashing, rows being marked
// published although JetStream never stored them, or the relay never recovering (or publishing
// twice) once NATS is reachable again. NATS is cut with a TCP proxy, so the real server keeps running
// for the other test files.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testNatsUrl } from '@hc/test-kit';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { connectNats, startOutboxRelay, type NatsConnection } from '../src/index.ts';
import { msgIdOf, setUp, streamMessages, unpublishedCount, until, writeOutbox, type Fixture } from './support.ts';

/** A TCP proxy in front of NATS that can be cut (every socket destroyed, port closed) and restored. */
class NatsProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly target: URL;
  port = 0;

  constructor(target: string) {
    this.target = new URL(target);
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = tcpConnect(Number(this.target.port || 4222), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        // A cut is expected here; the other side is destroyed with it.
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    // Same port every time, so the client's reconnect finds it again.
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

let f: Fixture;
let proxy: NatsProxy;
let nc: NatsConnection;
beforeAll(async () => {
  f = await setUp('outage');
  proxy = new NatsProxy(testNatsUrl());
  await proxy.up();
  // Short waits keep the test cheap; production uses connectNats' defaults.
  nc = await connectNats(proxy.url, 'events-test-outage-relay', { reconnectTimeWait: 50, reconnectJitter: 0 });
});
afterAll(async () => {
  await nc.close();
  await proxy.down();
  await f.close();
});

describe('startOutboxRelay with NATS unreachable', () => {
  it('keeps rows unpublished while NATS is down and publishes each once when it is back', async () => {
    const relay = await startOutboxRelay({
      databaseUrl: f.db.url,
      nats: nc,
      subjectPrefix: f.prefix,
      logger: f.logger,
      publishTimeoutMs: 250,
      maxBackoffMs: 200,
    });
    try {
      await writeOutbox(f.pool, [{ msgId: 'before', subject: 'checkout.outage.event', payload: { n: 0 } }]);
      await relay.drain();

      await proxy.down();
      const rows = [1, 2, 3].map((n) => ({ msgId: `during-${n}`, subject: 'checkout.outage.event', payload: { n } }));
      await writeOutbox(f.pool, rows);
      await until(() => f.logs.filter((l) => String(l['msg']).includes('publishing failed')).length >= 2);
      expect(await unpublishedCount(f.pool)).toBe(3);

      await proxy.up();
      await relay.drain();
    } finally {
      await relay.stop();
    }
    const stored = await streamMessages(f.nc, f.stream);
    // Publishes that timed out while disconnected may still have reached the server on reconnect;
    // the msg id makes the relay's retry of them a no-op, so each event is stored exactly once.
    expect(stored.map(msgIdOf)).toEqual(['before', 'during-1', 'during-2', 'during-3']);
    expect(f.logs.some((l) => String(l['msg']).includes('publishing again'))).toBe(true);
  });
});
