import { GenericContainer, getContainerRuntimeClient, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import { waitForDatabase } from '@hc/db';
import { freePort } from './disposable-servers.ts';

export interface StartedInfrastructure {
  databaseUrl: string;
  natsUrl: string;
  /** Which images ran, for the log line of each project. */
  describe: string;
  stop(): Promise<void>;
}

/**
 * The images, named by variables so that a laptop with a registry uses the public ones and a machine
 * without one uses those scripts/build-base-images.sh builds from Debian packages (ADR 0043).
 */
export function infrastructureImages(env: NodeJS.ProcessEnv = process.env): { postgres: string; nats: string } {
  return {
    postgres: env['TEST_POSTGRES_IMAGE'] || 'postgres:15',
    nats: env['TEST_NATS_IMAGE'] || 'nats:2.10',
  };
}

/** True when a Docker-compatible engine answers (testcontainers says so within milliseconds otherwise). */
export async function containerEngineAnswers(): Promise<boolean> {
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * A container whose ports are published on 127.0.0.1 only. testcontainers binds every interface by
 * default, which would put the test databases on the machine's network; containers are reached only
 * through the loopback address (ENVIRONMENT.md, "traffic rule").
 */
class LoopbackContainer extends GenericContainer {
  protected override async beforeContainerCreated(): Promise<void> {
    const bindings = this.hostConfig.PortBindings as Record<string, Array<{ HostIp?: string; HostPort?: string }>> | undefined;
    for (const list of Object.values(bindings ?? {})) for (const binding of list) binding.HostIp = '127.0.0.1';
  }
}

/** Refuses a started container that is reachable other than through 127.0.0.1. */
async function assertLoopbackOnly(container: StartedTestContainer): Promise<void> {
  const host = container.getHost();
  const runtime = await getContainerRuntimeClient();
  const inspected = await runtime.container.inspect(runtime.container.getById(container.getId()));
  const published = Object.values(inspected.NetworkSettings.Ports ?? {}).flatMap((list) => list ?? []);
  const exposed = published.filter((binding) => !LOOPBACK.has(binding.HostIp));
  if (!LOOPBACK.has(host) || exposed.length > 0) {
    throw new Error(
      `test container ${container.getName()} would be reachable beyond this machine (host ${host}, ports ` +
        `${JSON.stringify(published)}); set TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1`,
    );
  }
}

/** PostgreSQL 15 and NATS with JetStream in containers of their own, ports on 127.0.0.1. */
export async function startInfrastructureContainers(label: string): Promise<StartedInfrastructure> {
  const images = infrastructureImages();
  // Published on host ports of our choosing, below the kernel's ephemeral range (docs/adr/0110): a port
  // the engine picks is an ephemeral one, and once the container stops, a test server given that port by
  // listen(0) would be reached through the engine's forwarding rule, still in place, not itself.
  const [postgresPort, natsPort] = [await freePort(), await freePort()];
  const labels = { 'hosted-checkout.test': label };
  const settled = await Promise.allSettled([
    new LoopbackContainer(images.postgres)
      .withEnvironment({ POSTGRES_PASSWORD: 'postgres', POSTGRES_USER: 'postgres', POSTGRES_DB: 'postgres' })
      // Throw-away data: no fsync. The e2e platform and parallel test files open many connections.
      .withCommand(['postgres', '-c', 'fsync=off', '-c', 'max_connections=300'])
      .withExposedPorts({ container: 5432, host: postgresPort })
      .withLabels(labels)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/))
      .withStartupTimeout(120_000)
      .start(),
    new LoopbackContainer(images.nats)
      .withCommand(['-js', '-sd', '/tmp/jetstream'])
      .withExposedPorts({ container: 4222, host: natsPort })
      .withLabels(labels)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .withStartupTimeout(120_000)
      .start(),
  ]);
  const started = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.allSettled(started.map((container) => container.stop({ remove: true })));
    throw failed.reason;
  }
  const [postgres, nats] = started as [StartedTestContainer, StartedTestContainer];
  try {
    await assertLoopbackOnly(postgres);
    await assertLoopbackOnly(nats);
  } catch (error) {
    await Promise.allSettled([postgres.stop(), nats.stop()]);
    throw error;
  }
  const databaseUrl = `postgresql://postgres:postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`;
  // Its image may restart the server once after initialising: wait for a query to answer.
  await waitForDatabase(databaseUrl, { timeoutMs: 60_000, intervalMs: 250 });
  const natsUrl = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
  return {
    databaseUrl,
    natsUrl,
    describe: `containers: ${images.postgres} at ${postgres.getHost()}:${postgres.getMappedPort(5432)}, ${images.nats} at ${nats.getHost()}:${nats.getMappedPort(4222)}`,
    async stop() {
      await Promise.allSettled([postgres.stop({ remove: true }), nats.stop({ remove: true })]);
    },
  };
}
