// Risk covered: test containers reachable from the machine's network (testcontainers binds every
// interface by default), a PostgreSQL container that answers before it can take a query, or containers
// left behind after a run. Runs where a container engine answers (CI always has one: .ci/run); without
// one the suite runs on the local servers and this file says it was skipped.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getContainerRuntimeClient } from 'testcontainers';
import pg from 'pg';
import { containerEngineAnswers, startInfrastructureContainers } from '../src/containers.ts';
import { EPHEMERAL_PORTS_FROM } from '../src/disposable-servers.ts';
import type { StartedInfrastructure } from '../src/containers.ts';

const engine = await containerEngineAnswers();
const label = `kit-test-${process.pid}`;
let started: StartedInfrastructure;

async function containersLabelled(): Promise<Array<{ Ports: Array<{ IP?: string; PublicPort?: number }> }>> {
  const runtime = await getContainerRuntimeClient();
  const all = await runtime.container.list();
  return all.filter((c) => c.Labels['hosted-checkout.test'] === label) as unknown as Array<{
    Ports: Array<{ IP?: string; PublicPort?: number }>;
  }>;
}

(engine ? describe : describe.skip)('infrastructure containers (skipped: no container engine answers)', () => {
  beforeAll(async () => {
    started = await startInfrastructureContainers(label);
  }, 180_000);
  afterAll(async () => {
    await started?.stop();
  });

  it('publishes PostgreSQL and NATS on 127.0.0.1 only', async () => {
    const containers = await containersLabelled();
    expect(containers).toHaveLength(2);
    const ports = containers.flatMap((c) => c.Ports).filter((p) => p.PublicPort);
    expect(ports.length).toBeGreaterThanOrEqual(2);
    for (const port of ports) expect(port.IP).toBe('127.0.0.1');
    // Below the ephemeral range (docs/adr/0110): after these containers stop, the engine's forwarding
    // rule for a port outlives them for a moment, and a test server's listen(0) must never be given it.
    for (const port of ports) expect(port.PublicPort).toBeLessThan(EPHEMERAL_PORTS_FROM);
    expect(new URL(started.databaseUrl).hostname).toBe('127.0.0.1');
    expect(new URL(started.natsUrl).hostname).toBe('127.0.0.1');
  });

  it('hands over a PostgreSQL 15 that takes queries and a NATS that accepts connections', async () => {
    const client = new pg.Client({ connectionString: started.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
      expect(Number(rows[0]!.server_version_num)).toBeGreaterThanOrEqual(150000);
    } finally {
      await client.end();
    }
    const url = new URL(started.natsUrl);
    const greeting = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) });
      socket.once('data', (data) => (socket.destroy(), resolve(data.toString('utf8'))));
      socket.once('error', reject);
    });
    expect(greeting).toMatch(/^INFO .*"jetstream":true/);
  });

  it('removes both containers when stopped', async () => {
    await started.stop();
    expect(await containersLabelled()).toHaveLength(0);
  }, 60_000);
});
