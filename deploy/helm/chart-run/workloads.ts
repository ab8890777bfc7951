/**
 * The workloads of chart:run: the migration Jobs (Helm's pre-install hooks, each must exit 0), then every
 * Deployment at its rendered `replicas`, each replica its own container (hc-chart-<deployment>-<n>) with
 * the same network aliases, so a Service's name (the `-headless` one too) answers every replica as a
 * cluster's DNS answers a headless Service's ready pods (docs/adr/0092, 0094).
 */
import { containerPort } from './manifests.ts';
import type { ContainerSpec, Rendered, Workload } from './manifests.ts';
import { containerEnd, containerLogs, containerName, grpcReady, httpReady, publishedPort, run, tcpReady, tryRun } from './engine.ts';
import { runArgs, type PodContext } from './pods.ts';

const READY_TIMEOUT_MS = Number(process.env['CHART_RUN_READY_TIMEOUT_MS'] ?? 240_000);

export async function until(what: string, check: () => Promise<boolean>, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function probeReady(client: string, name: string, c: ContainerSpec): Promise<boolean> {
  const probe = c.readinessProbe;
  if (!probe) return tryRun(client, ['inspect', '-f', '{{.State.Running}}', name]) === 'true';
  if (probe.httpGet) return httpReady(publishedPort(client, name, containerPort(c, probe.httpGet.port)), probe.httpGet.path);
  if (probe.grpc) return grpcReady(publishedPort(client, name, probe.grpc.port));
  if (probe.tcpSocket) return tcpReady(publishedPort(client, name, containerPort(c, probe.tcpSocket.port)));
  throw new Error(`${name}: unsupported readiness probe ${JSON.stringify(probe)}`);
}

/** A started container of a Deployment's pod, and the spec its readiness probe comes from. */
export interface Replica {
  name: string;
  deployment: Workload;
  container: ContainerSpec;
}

/** Starts one replica of a Deployment (its single container) as `name`; not yet waited for. */
export async function startReplica(client: string, ctx: PodContext, d: Workload, name: string): Promise<Replica> {
  const [container, ...more] = d.pod.containers;
  if (!container || more.length > 0) throw new Error(`${d.name}: chart:run runs pods of exactly one container`);
  run(client, ['run', '-d', ...(await runArgs(ctx, d, container, name))]);
  return { name, deployment: d, container };
}

/** Waits until the replica's readiness probe passes; fails at once when its container stopped. */
export async function waitReady(client: string, replica: Replica, log: (line: string) => void): Promise<void> {
  const { name, container } = replica;
  await until(name, async () => {
    if (tryRun(client, ['inspect', '-f', '{{.State.Running}}', name]) !== 'true') {
      throw new Error(`${name} stopped (${containerEnd(client, name)}):\n${containerLogs(client, name, 30)}`);
    }
    return probeReady(client, name, container);
  });
  log(`ready: ${name}`);
}

/** Each migration Job's pod in turn, as Helm's pre-install hooks; one that does not exit 0 fails the run. */
export async function runMigrationJobs(client: string, ctx: PodContext, jobs: Workload[], log: (line: string) => void): Promise<void> {
  for (const job of jobs) {
    for (const c of job.pod.containers) {
      const name = containerName(job.name);
      log(`job ${job.name}`);
      tryRun(client, ['rm', '-f', name]);
      run(client, ['run', '-d', ...(await runArgs(ctx, job, c, name))]);
      const code = run(client, ['wait', name]);
      if (code !== '0') throw new Error(`job ${job.name} exited ${code}:\n${containerLogs(client, name, 30)}`);
    }
  }
}

/** Migration Jobs first, then every replica of every Deployment at once (as a cluster starts them), until all are ready. */
export async function startWorkloads(client: string, ctx: PodContext, rendered: Rendered, log: (line: string) => void): Promise<Replica[]> {
  await runMigrationJobs(client, ctx, rendered.jobs, log);
  const started: Replica[] = [];
  for (const d of rendered.deployments) {
    for (let n = 0; n < d.replicas; n++) started.push(await startReplica(client, ctx, d, containerName(`${d.name}-${n}`)));
  }
  for (const replica of started) await waitReady(client, replica, log);
  return started;
}
