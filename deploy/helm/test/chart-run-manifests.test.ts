// Risk covered: `pnpm chart:run` running something other than what the chart renders — a Deployment or
// migration Job left out, a pod unreachable under its Service's DNS name, an environment variable of a
// ConfigMap or Secret dropped, an Ingress path sent to the wrong workload. Reads the real helm render of
// the single-machine values (deploy/helm/chart-run/values.yaml); the runner itself is tested by
// deploy/helm/chart-run/test/chart-run.test.ts.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EPHEMERAL_PORTS_FROM } from '@hc/test-kit';
import { memoryLimit, readRendered, resolveEnv } from '../chart-run/manifests.ts';
import type { Rendered } from '../chart-run/manifests.ts';
import { runArgs } from '../chart-run/pods.ts';

const CHART = fileURLToPath(new URL('../hosted-checkout', import.meta.url));
const VALUES = fileURLToPath(new URL('../chart-run/values.yaml', import.meta.url));
const ENSURE_HELM = fileURLToPath(new URL('../../../scripts/ensure-helm.sh', import.meta.url));

let rendered: Rendered;
beforeAll(() => {
  const helm = execFileSync('bash', [ENSURE_HELM], { encoding: 'utf8' }).trim();
  rendered = readRendered(
    execFileSync(helm, ['template', 'hc', CHART, '-f', VALUES, '--set', 'publicBaseUrl=http://127.0.0.1:8480'], { encoding: 'utf8' }),
  );
}, 120_000);

describe('chart:run reads the rendered chart', () => {
  it('runs a migration Job per service database and every Deployment, from the locally built images', () => {
    const databases = [...rendered.secretsRead.keys()].filter((name) => name.endsWith('-database'));
    expect(rendered.jobs).toHaveLength(databases.length);
    expect(rendered.deployments.map((d) => d.labels['app.kubernetes.io/component']).sort()).toEqual([
      'accounts',
      'checkout',
      'customers',
      'dashboard',
      'gateway',
      'notifications',
      'pages',
      'settlement',
      'webhooks',
    ]);
    for (const w of [...rendered.jobs, ...rendered.deployments]) {
      for (const c of w.pod.containers) expect(c.image).toMatch(/^localhost\/hosted-checkout\/[a-z-]+:\d+\.\d+\.\d+$/);
    }
  });

  it('runs every Deployment at 2 replicas and the gateway at 3, each with its preStop hook and grace period (docs/replicas.md)', () => {
    const replicas = Object.fromEntries(rendered.deployments.map((d) => [d.labels['app.kubernetes.io/component'], d.replicas]));
    expect(replicas).toEqual({
      accounts: 2,
      checkout: 2,
      customers: 2,
      dashboard: 2,
      gateway: 3,
      notifications: 2,
      pages: 2,
      settlement: 2,
      webhooks: 2,
    });
    for (const d of rendered.deployments) {
      expect(d.pod.containers[0]!.lifecycle?.preStop?.exec?.command).toEqual(['sleep', '5']);
      expect(d.pod.terminationGracePeriodSeconds).toBe(30);
    }
  });

  it('reaches each Deployment under its Service name, as the other pods are configured to call it', () => {
    const checkout = rendered.deployments.find((d) => d.name === 'hc-hosted-checkout-checkout')!;
    expect(checkout.aliases).toEqual(expect.arrayContaining(['hc-hosted-checkout-checkout', 'hc-hosted-checkout-checkout.default.svc']));
    const gatewayConfig = rendered.configMaps.get('hc-hosted-checkout-gateway')!;
    // dns:///<name>:<port>: the headless Service's name, an alias of every checkout container (podman's
    // DNS answers all of them, as a cluster's DNS answers every ready pod of a headless Service).
    const { hostname } = new URL(gatewayConfig['CHECKOUT_GRPC_ADDRESS']!.replace(/^dns:\/\/\//, 'http://'));
    expect(gatewayConfig['CHECKOUT_GRPC_ADDRESS']).toMatch(/^dns:\/\/\/hc-hosted-checkout-checkout-headless\.default\.svc:\d+$/);
    expect(checkout.aliases).toContain(hostname);
  });

  // Risk covered (docs/adr/0110): a port the engine picks is an ephemeral one; once its container stops,
  // the engine's forwarding rule outlives it for a moment and a server that listen(0) was given the same
  // port is not reached (CI: a gateway refused every request of a test file).
  it('publishes every pod port on 127.0.0.1 at a host port of its own, below the ephemeral range', async () => {
    const state = mkdtempSync(join(tmpdir(), 'chart-run-ports-'));
    try {
      // Every Secret a pod reads, with a placeholder value: only the published ports are looked at.
      const secrets = new Map([...rendered.secretsRead].map(([name, keys]) => [name, Object.fromEntries([...keys].map((k) => [k, 'x']))]));
      for (const e of rendered.deployments.flatMap((d) => d.pod.containers).flatMap((c) => c.env ?? [])) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) secrets.set(ref.name, { ...secrets.get(ref.name), [ref.key]: 'x' });
      }
      const ctx = { network: 'hc-chart', state, configMaps: rendered.configMaps, secrets };
      const published: string[] = [];
      for (const d of rendered.deployments) {
        const args = await runArgs(ctx, d, d.pod.containers[0]!, `hc-chart-${d.name}-0`);
        published.push(...args.filter((_, i) => args[i - 1] === '-p'));
        expect(args.filter((a) => a === '-p')).toHaveLength(d.pod.containers[0]!.ports?.length ?? 0);
      }
      expect(published.length).toBeGreaterThanOrEqual(rendered.deployments.length);
      const hostPorts = published.map((binding) => {
        const [ip, hostPort, containerPort] = binding.split(':');
        expect(ip).toBe('127.0.0.1');
        expect(Number(containerPort)).toBeGreaterThan(0);
        return Number(hostPort);
      });
      for (const port of hostPorts) expect(port).toBeGreaterThan(1_024);
      for (const port of hostPorts) expect(port).toBeLessThan(EPHEMERAL_PORTS_FROM);
      expect(new Set(hostPorts).size).toBe(hostPorts.length);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('gives a container its ConfigMap through envFrom and its Secrets through env, env winning', () => {
    const gateway = rendered.deployments.find((d) => d.name === 'hc-hosted-checkout-gateway')!.pod.containers[0]!;
    const secrets = new Map([['hc-gateway-database', { url: 'postgresql://u:p@postgres:5432/hc_gateway' }]]);
    const env = resolveEnv(gateway, rendered.configMaps, secrets);
    expect(env['GATEWAY_DATABASE_URL']).toBe('postgresql://u:p@postgres:5432/hc_gateway');
    // The three nodes of chart:run's JetStream cluster (nats-cluster.ts), each stream kept on all three.
    expect(env['NATS_URL']).toBe('tls://nats-0:4222,tls://nats-1:4222,tls://nats-2:4222');
    for (const d of rendered.deployments) {
      const configMap = d.pod.containers[0]!.envFrom?.find((from) => from.configMapRef)?.configMapRef?.name ?? '';
      expect({ d: d.name, replicas: rendered.configMaps.get(configMap)?.['NATS_STREAM_REPLICAS'] }).toEqual({ d: d.name, replicas: '3' });
    }
    expect(env['PUBLIC_BASE_URL']).toBe('http://127.0.0.1:8480');
    expect(() => resolveEnv(gateway, rendered.configMaps, new Map())).toThrow(/Secret hc-gateway-database key url is missing/);
  });

  it('logs the gRPC services in to NATS over TLS: a user from a Secret, the CA from a Secret volume (both made by chart:run)', () => {
    expect(rendered.secretsRead.get('hc-chart-run-nats')).toEqual(new Set(['user', 'password']));
    expect(rendered.secretsRead.get('hc-chart-run-nats-ca')).toEqual(new Set(['ca.crt']));
    const checkout = rendered.deployments.find((d) => d.name === 'hc-hosted-checkout-checkout')!;
    const names = (checkout.pod.containers[0]!.env ?? []).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['NATS_USER', 'NATS_PASSWORD', 'NATS_CA_FILE']));
    expect(checkout.pod.volumes).toContainEqual(
      expect.objectContaining({ secret: expect.objectContaining({ secretName: 'hc-chart-run-nats-ca' }) }),
    );
  });

  it('has the helm test pods, ready before create, and equal Service and container ports (no kube-proxy here)', () => {
    expect(rendered.tests.map((t) => t.name)).toEqual(['hc-hosted-checkout-test-ready', 'hc-hosted-checkout-test-create']);
    expect(rendered.ingress).toContainEqual({ path: '/', target: 'hc-hosted-checkout-gateway:8080' });
  });

  it('routes the Ingress paths to the pages, the dashboard and the gateway container ports', () => {
    const target = (path: string): string | undefined => rendered.ingress.find((r) => r.path === path)?.target;
    expect(target('/pay')).toBe('hc-hosted-checkout-pages:8082');
    expect(target('/dashboard')).toBe('hc-hosted-checkout-dashboard:8083');
    expect(target('/')).toBe('hc-hosted-checkout-gateway:8080');
  });

  it('turns Kubernetes memory quantities into engine limits', () => {
    expect(memoryLimit('512Mi')).toBe('512m');
    expect(memoryLimit('1Gi')).toBe('1g');
    expect(memoryLimit(undefined)).toBeUndefined();
    expect(memoryLimit('0.5Gi')).toBeUndefined();
  });
});
