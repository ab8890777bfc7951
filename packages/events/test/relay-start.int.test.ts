// Risk covered: a service failing its start because PostgreSQL was slow to accept the relay's LISTEN
// connection once (CI: a platform whose start failed on "timeout expired" under load), and the
// opposite, a relay that never reaches its database starting anyway. The database is reached through
// a TCP proxy that drops the first connections; the real server answers the rest.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { freePort } from '@hc/test-kit';
import { startOutboxRelay } from '../src/index.ts';
import { msgIdOf, setUp, streamMessages, writeOutbox, type Fixture } from './support.ts';

/** A TCP proxy in front of PostgreSQL that drops the first `refuse` connections, then pipes the rest. */
async function flakyProxy(target: URL, refuse: number): Promise<{ url: string; dropped: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let dropped = 0;
  const server: Server = createServer((client) => {
    client.on('error', () => undefined);
    if (dropped < refuse) {
      dropped += 1;
      client.destroy();
      return;
    }
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    upstream.on('error', () => client.destroy());
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    dropped: () => dropped,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let f: Fixture;
beforeAll(async () => {
  f = await setUp('relay-start');
});
afterAll(async () => {
  await f.close();
});

describe('startOutboxRelay at start', () => {
  it('tries the LISTEN connection again when the database drops the first attempts, then publishes', async () => {
    const proxy = await flakyProxy(new URL(f.db.url), 2);
    try {
      const relay = await startOutboxRelay({ databaseUrl: proxy.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger });
      try {
        expect(proxy.dropped()).toBe(2);
        await writeOutbox(f.pool, [{ msgId: 'after-retry', subject: 'checkout.start.event', payload: { n: 1 } }]);
        await relay.drain();
      } finally {
        await relay.stop();
      }
      expect((await streamMessages(f.nc, f.stream)).map(msgIdOf)).toContain('after-retry');
    } finally {
      await proxy.close();
    }
  });

  it('refuses to start at once when the database does not exist (waiting cannot mend it)', async () => {
    const url = new URL(f.db.url);
    url.pathname = '/no_such_database_here';
    const started = Date.now();
    await expect(
      startOutboxRelay({ databaseUrl: url.toString(), nats: f.nc, subjectPrefix: f.prefix, logger: f.logger }),
    ).rejects.toMatchObject({
      code: '3D000',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('still refuses to start once its wait is over when nothing answers at the address', async () => {
    const port = await freePort();
    const url = new URL(f.db.url);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    const started = Date.now();
    await expect(
      startOutboxRelay({ databaseUrl: url.toString(), nats: f.nc, subjectPrefix: f.prefix, logger: f.logger, startWaitMs: 600 }),
    ).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
