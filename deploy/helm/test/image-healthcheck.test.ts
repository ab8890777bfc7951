// Risk covered: an image HEALTHCHECK (deploy/docker/healthcheck.ts) that asks something else than the
// chart's readinessProbe — another port, path or protocol — so `docker ps`/`podman ps` calls a pod's
// container healthy that Kubernetes would take out of its Service, or the reverse. For every Deployment
// the chart renders (the emulator and a gRPC service added by its values block included), the health
// client's target, computed from the container's environment as rendered (its ConfigMap and env), is
// the readinessProbe's check on the container's port. That the check passes and fails in a running
// container is deploy/docker/test/images.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { targetOf } from '../../docker/healthcheck.ts';
import { ensureHelm, renderChart, valuesWithNewService } from './render.ts';

interface Probe {
  httpGet?: { path: string; port: string | number };
  grpc?: { port: number };
  tcpSocket?: { port: string | number };
}
interface Container {
  name: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string } }[];
  readinessProbe?: Probe;
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec: { template?: { spec: { containers: Container[] } } };
}

let helm: string;
let work: string;
beforeAll(() => {
  helm = ensureHelm();
  work = mkdtempSync(join(tmpdir(), 'hc-helm-healthcheck-'));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the readinessProbe asks, in the health client's words, on 127.0.0.1 (the container itself). */
function probeDescription(container: Container): string {
  const probe = container.readinessProbe!;
  const port = (p: string | number): number =>
    typeof p === 'number' ? p : container.ports!.find((candidate) => candidate.name === p)!.containerPort;
  if (probe.httpGet) return `GET http://127.0.0.1:${port(probe.httpGet.port)}${probe.httpGet.path}`;
  if (probe.grpc) return `grpc.health.v1.Health/Check 127.0.0.1:${probe.grpc.port}`;
  return `TCP 127.0.0.1:${port(probe.tcpSocket!.port)}`;
}

it("the image's health check asks each Deployment's container what its readinessProbe asks", () => {
  const manifests = renderChart<Manifest>(helm, '-f', valuesWithNewService(work));
  const configMaps = new Map(manifests.filter((m) => m.kind === 'ConfigMap').map((m) => [m.metadata.name, m.data ?? {}]));
  const deployments = manifests.filter((m) => m.kind === 'Deployment');
  const compared = deployments.map((deployment) => {
    const service = deployment.metadata.name.replace('pay-hosted-checkout-', '');
    const container = deployment.spec.template!.spec.containers.find((c) => c.readinessProbe)!;
    const env: Record<string, string> = {};
    for (const from of container.envFrom ?? []) Object.assign(env, configMaps.get(from.configMapRef?.name ?? '') ?? {});
    for (const entry of container.env ?? []) if (entry.value !== undefined) env[entry.name] = entry.value;
    return [service, targetOf(service, env)?.description, probeDescription(container)];
  });
  expect(compared.map(([service]) => service)).toEqual(
    expect.arrayContaining(['gateway', 'pages', 'dashboard', 'emulator', 'payouts', 'checkout']),
  );
  for (const [service, healthcheck, probe] of compared) expect([service, healthcheck]).toEqual([service, probe]);
});
