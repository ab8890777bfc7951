import type { StartedInfrastructure } from './containers.ts';

export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { __hcContainers?: StartedInfrastructure };
  const started = holder.__hcContainers;
  delete holder.__hcContainers;
  await started?.stop();
}
