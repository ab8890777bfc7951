// Risk covered: a one-shot tool (the operator CLI) refused because its first call came while the
// server's name did not resolve yet or the server was not listening (chart:run in CI: "the account's
// audit log … cannot be written" while podman's DNS restarted). With waitForReady the call waits within
// its deadline; without it (every service's client) it fails at once, as callers that retry expect.
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { createLogger } from '@hc/logging';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { createGrpcServer, createServiceClient, createToolClient, type CallContext, type GrpcServer } from '../src/index.ts';

const ctx: CallContext = { accountId: 'acct_1', livemode: false, requestId: 'req_1' };
const refuse = async (): Promise<never> => {
  throw new ApiError('not_found');
};
let server: GrpcServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A port nothing listens on (taken and given back). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServerOn(port: number): Promise<void> {
  server = createGrpcServer(createLogger('grpc-wait-test', { level: 'silent' }));
  server.add(DashboardUsersService, {
    isAccountUser: async () => ({ isUser: true }),
    createUser: refuse,
    recordAuditEntry: refuse,
    completeAuditEntry: refuse,
  });
  await server.listen(`127.0.0.1:${port}`);
}

const ask = (client: ReturnType<typeof createServiceClient<typeof DashboardUsersService>>) =>
  client.isAccountUser({ accountId: 'acct_1', email: 'a@example.com' }, ctx);

it('a waitForReady client waits, within its deadline, for a server that starts after the call', async () => {
  const port = await freePort();
  const client = createToolClient(DashboardUsersService, `127.0.0.1:${port}`, 10_000);
  try {
    const answer = ask(client);
    await sleep(1_500);
    await startServerOn(port);
    await expect(answer).resolves.toMatchObject({ isUser: true });
  } finally {
    client.close();
  }
});

it('a default client fails at once when nothing listens, and a waitForReady one only at its deadline', async () => {
  const port = await freePort();
  const failFast = createServiceClient(DashboardUsersService, `127.0.0.1:${port}`, { timeoutMs: 10_000 });
  const waiting = createToolClient(DashboardUsersService, `127.0.0.1:${port}`, 1_500);
  try {
    const started = Date.now();
    await expect(ask(failFast)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const waited = Date.now();
    await expect(ask(waiting)).rejects.toBeInstanceOf(ApiError);
    expect(Date.now() - waited).toBeGreaterThanOrEqual(1_400);
  } finally {
    failFast.close();
    waiting.close();
  }
});
