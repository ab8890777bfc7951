/**
 * `pnpm chart:run --upgrade`: a rolling upgrade of the platform chart:run left running to what the chart
 * renders now, the way `helm upgrade` and the Deployment controller do it (docs/replicas.md, ADR 0094):
 *   1. the migration Jobs with the new images (Helm's pre-upgrade hooks), each must exit 0;
 *   2. Deployment by Deployment, replica by replica, with the chart's strategy (maxSurge 1,
 *      maxUnavailable 0): start a new replica, wait until its readiness probe passes, add it to the
 *      Ingress's endpoints; then terminate one old replica as the kubelet does: out of the endpoints,
 *      its preStop hook run inside it, SIGTERM, SIGKILL after terminationGracePeriodSeconds.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Workload } from './manifests.ts';
import { LABEL, NETWORK, containerName, run, tryRun } from './engine.ts';
import { addressOf, type Endpoints } from './endpoints.ts';
import type { PodContext } from './pods.ts';
import { runMigrationJobs, startReplica, waitReady } from './workloads.ts';

/** The running replicas of a Deployment, oldest first. */
export function runningReplicas(client: string, deployment: string): string[] {
  const out = tryRun(client, ['ps', '--filter', `label=${LABEL}.workload=${deployment}`, '--format', '{{.Created}}\t{{.Names}}']) ?? '';
  return out
    .split('\n')
    .filter(Boolean)
    .sort()
    .map((line) => line.split('\t')[1]!);
}

/**
 * The kubelet's termination: endpoints first, then preStop, SIGTERM, and SIGKILL when the grace period
 * is over. CHART_RUN_UPGRADE_ABRUPT=1 instead SIGKILLs the replica at once, still listed as an endpoint:
 * what the rolling-upgrade test must catch (it did: docs/replicas.md).
 */
async function terminate(client: string, d: Workload, name: string, endpoints: Endpoints, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  if (process.env['CHART_RUN_UPGRADE_ABRUPT'] === '1') {
    run(client, ['rm', '-f', '-t', '0', name]);
    return log(`terminated: ${name} (SIGKILL, abrupt)`);
  }
  endpoints.remove(d, addressOf(client, NETWORK, name));
  const preStop = d.pod.containers[0]?.lifecycle?.preStop?.exec?.command;
  // Not spawnSync: the other rollouts go on while this one waits.
  const engine = (args: string[]): Promise<unknown> => promisify(execFile)(client, args).catch(() => undefined);
  if (preStop) await engine(['exec', name, ...preStop]);
  const grace = d.pod.terminationGracePeriodSeconds ?? 30;
  const left = Math.max(1, Math.ceil(grace - (Date.now() - started) / 1000));
  await engine(['stop', '-t', String(left), name]);
  const code = tryRun(client, ['inspect', '-f', '{{.State.ExitCode}}', name]);
  run(client, ['rm', '-f', name]);
  log(`terminated: ${name} (exit ${code}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** One Deployment's rollout: maxSurge 1, maxUnavailable 0, readiness gated. */
export async function rollOut(
  client: string,
  ctx: PodContext,
  d: Workload,
  revision: string,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  const old = runningReplicas(client, d.name);
  for (let n = 0; n < Math.max(d.replicas, old.length); n++) {
    if (n < d.replicas) {
      const fresh = await startReplica(client, ctx, d, containerName(`${d.name}-${revision}-${n}`));
      await waitReady(client, fresh, log);
      endpoints.add(d, addressOf(client, NETWORK, fresh.name));
    }
    const gone = old[n];
    if (gone) await terminate(client, d, gone, endpoints, log);
  }
}

/**
 * Migrations first, then the Deployments' rollouts, `parallel` at a time (helm changes every Deployment
 * at once and each rolls on its own; on a 2-core machine three at a time keeps the starts from starving).
 */
export async function upgrade(
  client: string,
  ctx: PodContext,
  rendered: { jobs: Workload[]; deployments: Workload[] },
  endpoints: Endpoints,
  log: (line: string) => void,
  parallel = Number(process.env['CHART_RUN_ROLLOUTS_IN_PARALLEL'] ?? 3),
): Promise<void> {
  const revision = `r${Date.now().toString(36).slice(-5)}`;
  await runMigrationJobs(client, ctx, rendered.jobs, log);
  const queue = [...rendered.deployments];
  const worker = async (): Promise<void> => {
    for (let d = queue.shift(); d; d = queue.shift()) {
      log(`rolling out ${d.name} (${d.replicas} replicas)`);
      await rollOut(client, ctx, d, revision, endpoints, log);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}
