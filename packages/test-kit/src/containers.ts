import { GenericContainer, getContainerRuntimeClient, Wait } from 'testcontainers';
import { PostgreSqlContainer } from '@testcontainers/postgresql';

export interface StartedInfrastructure {
  databaseUrl: string;
  natsUrl: string;
  stop(): Promise<void>;
}

async function dockerAnswers(): Promise<boolean> {
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL 15 and NATS with JetStream in containers, or undefined when no Docker engine answers. */
export async function infrastructureFromContainers(): Promise<StartedInfrastructure | undefined> {
  if (!(await dockerAnswers())) return undefined;
  const postgres = await new PostgreSqlContainer('postgres:15-alpine').withUsername('postgres').withPassword('postgres').start();
  const nats = await new GenericContainer('nats:2.10-alpine')
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  const databaseUrl = `postgresql://postgres:postgres@${postgres.getHost()}:${postgres.getPort()}/postgres`;
  return {
    databaseUrl,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    async stop() {
      await Promise.all([postgres.stop(), nats.stop()]);
    },
  };
}
