// Risk covered: a client pinned to one replica of a service (grpc-js's default pick_first keeps one
// connection, so behind a headless Service every call of a gateway would go to one pod), and a client
// that stops answering when one of the replicas it spreads over dies (docs/adr/0092).
import { setTimeout as sleep } from 'node:timers/promises';
import { experimental, type ChannelOptions } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { createLogger } from '@hc/logging';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { createGrpcServer, createServiceClient, type CallContext, type GrpcServer } from '../src/index.ts';

const ctx: CallContext = { accountId: 'acct_1', livemode: false, requestId: 'req_1' };
const refuse = async (): Promise<never> => {
  throw new ApiError('not_found');
};

interface Replica {
  server: GrpcServer;
  port: number;
  /** Calls this replica answered. */
  calls: number;
}

async function startReplica(maxConnectionAgeMs?: number): Promise<Replica> {
  const server = createGrpcServer(createLogger('grpc-balancing-test', { level: 'silent' }), { maxConnectionAgeMs });
  const replica: Replica = { server, port: 0, calls: 0 };
  server.add(DashboardUsersService, {
    async isAccountUser() {
      replica.calls += 1;
      return { isUser: true };
    },
    createUser: refuse,
    recordAuditEntry: refuse,
    completeAuditEntry: refuse,
  });
  replica.port = await server.listen('127.0.0.1:0');
  return replica;
}

/** `times` calls one after another, each awaited: what one caller of a service does. */
async function callInTurn(client: ReturnType<typeof createServiceClient<typeof DashboardUsersService>>, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const answer = await client.isAccountUser({ accountId: 'acct_1', email: 'a@example.com' }, ctx);
    expect(answer.isUser).toBe(true);
  }
}

let replicas: Replica[] = [];

/**
 * A name whose answer the test changes, as a headless Service's DNS answer changes when a Deployment
 * scales out: `hc-test-replicas:x` resolves to 127.0.0.1 on each port of `announced`, each time the
 * channel asks again (as grpc-js's DNS resolver does, which cannot be given changing answers here).
 */
const announced: number[] = [];
class AnnouncedPorts implements experimental.Resolver {
  private readonly listener: experimental.ResolverListener;
  constructor(_target: unknown, listener: experimental.ResolverListener, _options: ChannelOptions) {
    this.listener = listener;
  }
  static getDefaultAuthority(): string {
    return 'replicas';
  }
  updateResolution(): void {
    const endpoints = announced.map((port) => ({ addresses: [{ host: '127.0.0.1', port }] }));
    setImmediate(() => this.listener(experimental.statusOrFromValue(endpoints), {}, null, ''));
  }
  destroy(): void {}
}
experimental.registerResolver('hc-test-replicas', AnnouncedPorts);

beforeAll(async () => {
  replicas = await Promise.all([startReplica(), startReplica()]);
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.server.stop(0)));
});

describe('a client of a service with several replicas', () => {
  it('spreads its calls over every address of its target, per call, and keeps answering on the others when one replica dies', async () => {
    const [a, b] = replicas as [Replica, Replica];
    // The target a DNS name with two A records resolves to, written out: grpc-js's ipv4: resolver.
    const client = createServiceClient(DashboardUsersService, `ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`);
    try {
      await callInTurn(client, 40);
      // pick_first would have sent all 40 to one of them; round_robin alternates once both are connected.
      expect(a.calls + b.calls).toBe(40);
      expect(a.calls).toBeGreaterThanOrEqual(10);
      expect(b.calls).toBeGreaterThanOrEqual(10);

      // As a SIGKILL would: the connections cut at once, nothing drained.
      b.server.server.forceShutdown();
      const before = { a: a.calls, b: b.calls };
      await callInTurn(client, 20);
      expect(a.calls - before.a).toBe(20);
      expect(b.calls).toBe(before.b);
    } finally {
      client.close();
    }
  });

  it('reaches a service by a dns:/// target, and by a plain host:port as the local platform and the tests do', async () => {
    const [a] = replicas as [Replica];
    const before = a.calls;
    // localhost may resolve to ::1 too, where nothing listens: that address stays unconnected and the calls go to the other.
    for (const target of [`dns:///localhost:${a.port}`, `127.0.0.1:${a.port}`]) {
      const client = createServiceClient(DashboardUsersService, target);
      try {
        await callInTurn(client, 3);
      } finally {
        client.close();
      }
    }
    expect(a.calls - before).toBe(6);
  });

  it('learns a replica added after it connected, once the server ages its connections out', async () => {
    // The production age is a minute; a short one keeps the test short.
    const [first, added] = await Promise.all([startReplica(300), startReplica(300)]);
    replicas.push(first, added);
    announced.splice(0, announced.length, first.port);
    const client = createServiceClient(DashboardUsersService, 'hc-test-replicas:checkout');
    try {
      await callInTurn(client, 5);
      expect(first.calls).toBe(5);
      // The scale-out: the name now answers both. Nothing tells a running client but its own re-resolution.
      announced.push(added.port);
      for (let i = 0; i < 1000 && added.calls === 0; i++) {
        await callInTurn(client, 1);
        await sleep(20);
      }
      expect(added.calls).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  });
});
