import type { StartedInfrastructure } from './containers.ts';

/** Removes the run's containers once (jest calls it once per project, after every test has finished). */
export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { __hcInfrastructure?: { started?: StartedInfrastructure } };
  const started = holder.__hcInfrastructure?.started;
  if (holder.__hcInfrastructure) delete holder.__hcInfrastructure.started;
  await started?.stop();
}
