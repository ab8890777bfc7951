import { infrastructureFromContainers } from './containers.ts';

/**
 * Jest globalSetup: when no TEST_DATABASE_URL is given and a Docker engine answers, start PostgreSQL
 * and NATS containers once for the whole run and point the workers at them. Without Docker the
 * detection fails within milliseconds and the local servers are used.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env['TEST_DATABASE_URL'] || process.env['HC_TEST_NO_CONTAINERS'] === '1') return;
  const started = await infrastructureFromContainers();
  if (!started) return;
  process.env['TEST_DATABASE_URL'] = started.databaseUrl;
  process.env['TEST_NATS_URL'] = started.natsUrl;
  (globalThis as { __hcContainers?: typeof started }).__hcContainers = started;
}
