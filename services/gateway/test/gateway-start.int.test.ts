// Risk covered: a gateway whose start fails half-way (its port already taken) keeping what it had
// started — the gRPC connection to the accounts key directory, the database connections — so a process
// that retries the start, or the next test, inherits them (docs/adr/0095, addendum). Real PostgreSQL,
// NATS, the accounts service, and a counting TCP proxy in front of it.
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type pg from 'pg';
import { ACCOUNTS_MIGRATIONS_DIR, loadAccountsConfig, startAccountsService, type RunningAccountsService } from '@hc/accounts';
import { createLogger } from '@hc/logging';
import { createTestDatabase, NOT_RUNNING_ADDRESS, openTestPool, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { loadGatewayConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';
import { GATEWAY_MIGRATIONS_DIR } from '../src/migrations.ts';

const logger = createLogger('gateway-start-test', { level: 'silent' });
let accountsDb: TestDatabase;
let gatewayDb: TestDatabase;
let accounts: RunningAccountsService;

beforeAll(async () => {
  accountsDb = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  gatewayDb = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  accounts = await startAccountsService(
    loadAccountsConfig({
      ACCOUNTS_DATABASE_URL: accountsDb.url,
      ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
      NATS_URL: testNatsUrl(),
      NATS_SUBJECT_PREFIX: testNatsPrefix('gateway-start'),
      LOG_LEVEL: 'silent',
    }),
    logger,
  );
});
afterAll(async () => {
  await accounts?.stop();
  await gatewayDb?.drop();
  await accountsDb?.drop();
});

/** A TCP proxy to `target` that knows how many connections through it are open. */
async function countingProxy(
  target: string,
): Promise<{ address: string; opened: () => number; open: () => number; close: () => Promise<void> }> {
  const [host, port] = target.split(':') as [string, string];
  const sockets = new Set<Socket>();
  let opened = 0;
  const proxy: Server = createServer((inbound) => {
    const outbound = connect(Number(port), host);
    sockets.add(inbound);
    opened += 1;
    inbound.once('close', () => sockets.delete(inbound));
    for (const [a, b] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      a.pipe(b);
      a.once('error', () => b.destroy());
      a.once('close', () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    opened: () => opened,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

async function gatewayConnections(probe: pg.Pool): Promise<number> {
  const { rows } = await probe.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows[0]!.n;
}

it('closes the key directory connection and the database connections when the start fails at its port', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const proxy = await countingProxy(accounts.address);
  const probe = openTestPool(gatewayDb.url, 1);
  try {
    const config = loadGatewayConfig({
      GATEWAY_DATABASE_URL: gatewayDb.url,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String((taken.address() as AddressInfo).port),
      ACCOUNTS_GRPC_ADDRESS: proxy.address,
      CHECKOUT_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
      CUSTOMERS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
      WEBHOOKS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
      LOG_LEVEL: 'silent',
    });
    await expect(startGateway(config, logger)).rejects.toThrow(/EADDRINUSE/);
    // The key cache's first sync went through the proxy: the start reached the key directory.
    expect(proxy.opened()).toBeGreaterThan(0);
    // Closing is asynchronous on the far side: give the sockets a moment to end.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ keyDirectory: proxy.open(), database: await gatewayConnections(probe) }).toEqual({ keyDirectory: 0, database: 0 });
  } finally {
    await probe.end();
    await proxy.close();
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
});
