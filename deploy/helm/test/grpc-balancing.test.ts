// Risk covered: gRPC calls pinned to one pod of a service with several replicas (issue 46, item 1;
// docs/adr/0092). A ClusterIP Service is balanced per connection by kube-proxy and a gRPC client keeps
// one connection, so the chart must give every gRPC service (a new one added by its values block
// included) a headless Service selecting its pods on its container port, and point the other services'
// <SERVICE>_GRPC_ADDRESS at it as a dns:/// target, which the clients resolve to every pod and balance
// with round_robin (packages/grpc/test/balancing.int.test.ts). The ClusterIP Service stays.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { CHART, ensureHelm, renderChart, valuesWithNewService } from './render.ts';

interface Manifest {
  kind: string;
  metadata: { name: string; labels: Record<string, string> };
  data?: Record<string, string>;
  spec: {
    clusterIP?: string;
    type?: string;
    selector?: Record<string, string> | { matchLabels: Record<string, string> };
    podSelector?: { matchLabels: Record<string, string> };
    ports?: { name: string; port: number; targetPort: string }[];
    template?: { spec: { containers: { ports: { name: string; containerPort: number }[] }[] } };
  };
}

const DEFAULT_GRPC_SERVICES = Object.keys(
  (parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as { grpcServices: Record<string, unknown> }).grpcServices,
);
/** The chart's gRPC services and `payouts`, one added by its values block alone. */
const GRPC_SERVICES = [...DEFAULT_GRPC_SERVICES, 'payouts'];

let manifests: Manifest[];
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'hc-helm-balancing-'));
  manifests = renderChart<Manifest>(ensureHelm(), '-f', valuesWithNewService(work));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const component = (m: Manifest) => m.metadata.labels['app.kubernetes.io/component'];
const find = (kind: string, name: string) => manifests.filter((m) => m.kind === kind && component(m) === name);

describe('the gRPC services behind headless Services', () => {
  it.each(GRPC_SERVICES)('%s has a headless Service on the container port of its pods, beside its ClusterIP Service', (name) => {
    const services = find('Service', name);
    const [deployment] = find('Deployment', name);
    const grpcPort = deployment!.spec.template!.spec.containers[0]!.ports.find((p) => p.name === 'grpc')!.containerPort;
    const selector = (deployment!.spec.selector as { matchLabels: Record<string, string> }).matchLabels;

    const clusterIp = services.find((s) => s.metadata.name === `pay-hosted-checkout-${name}`)!;
    expect(clusterIp.spec.type).toBe('ClusterIP');
    expect(clusterIp.spec.clusterIP).toBeUndefined();

    const headless = services.find((s) => s.metadata.name === `pay-hosted-checkout-${name}-headless`)!;
    expect(headless.spec.clusterIP).toBe('None');
    expect(headless.spec.selector).toEqual(selector);
    // A headless Service proxies nothing: clients dial the pod's own port, which must be the one named.
    expect(headless.spec.ports).toEqual([{ name: 'grpc', port: grpcPort, targetPort: 'grpc', protocol: 'TCP' }]);
    // Its NetworkPolicy selects the same pods, so it governs the calls that come by the headless name.
    const [policy] = find('NetworkPolicy', name);
    expect(policy!.spec.podSelector!.matchLabels).toEqual(selector);
  });

  it("points every other service's <SERVICE>_GRPC_ADDRESS at the headless name as a dns:/// target; each listens on its own port", () => {
    const configs = manifests.filter((m) => m.kind === 'ConfigMap' && component(m) !== 'helm-test');
    expect(configs.length).toBeGreaterThan(GRPC_SERVICES.length);
    for (const config of configs) {
      for (const name of GRPC_SERVICES) {
        const [deployment] = find('Deployment', name);
        const port = deployment!.spec.template!.spec.containers[0]!.ports.find((p) => p.name === 'grpc')!.containerPort;
        const variable = `${name.toUpperCase()}_GRPC_ADDRESS`;
        const expected =
          component(config) === name ? `0.0.0.0:${port}` : `dns:///pay-hosted-checkout-${name}-headless.payments.svc:${port}`;
        expect({ config: config.metadata.name, [variable]: config.data![variable] }).toEqual({
          config: config.metadata.name,
          [variable]: expected,
        });
      }
    }
  });

  it('keeps the headless name within the 63 characters of a Service name for a long release name', () => {
    const long = renderChart<Manifest>(ensureHelm(), '--set', `fullnameOverride=${'x'.repeat(50)}`);
    const headless = long.filter((m) => m.kind === 'Service' && m.spec.clusterIP === 'None').map((m) => m.metadata.name);
    expect(headless).toHaveLength(DEFAULT_GRPC_SERVICES.length);
    for (const name of headless) {
      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(/-headless$/);
    }
    expect(new Set(headless).size).toBe(headless.length);
  });
});
