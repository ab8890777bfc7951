// Risk covered: a release whose `helm test` proves nothing (issue 45, item 4): test pods that skip a
// service (a new one added by its values block, say), that cannot reach the services through their
// NetworkPolicies, that carry the API key outside a Secret, or that run a script other than the one in
// files/. It proves, on the chart rendered by a real helm: two test-hook Pods (ready, then create) with
// the gateway image and the chart's security settings; the ready check lists every Deployment through its
// Service (a gRPC service added only in values included); every NetworkPolicy admits the test pods on the
// service's port; the key comes from tests.apiKey's Secret; the ConfigMap holds files/ as they are;
// tests.enabled=false renders none of it. That the pods pass (and fail) when run is chart:run's test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHART, ensureHelm, renderChart, valuesWithNewService } from './render.ts';

interface Container {
  name: string;
  image: string;
  command: string[];
  env: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  securityContext: Record<string, unknown>;
}
interface Manifest {
  kind: string;
  metadata: { name: string; labels: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
  spec: {
    containers: Container[];
    securityContext: Record<string, unknown>;
    automountServiceAccountToken?: boolean;
    podSelector?: { matchLabels: Record<string, string> };
    ingress?: { from?: { podSelector?: { matchLabels: Record<string, string> } }[]; ports: { port: number }[] }[];
    ports?: { port: number }[];
    template?: { spec: { containers: Container[] } };
  };
}
interface Target {
  name: string;
  http?: string;
  grpc?: string;
  tcp?: string;
}

let helm: string;
let work: string;
beforeAll(() => {
  helm = ensureHelm();
  work = mkdtempSync(join(tmpdir(), 'hc-helm-test-'));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const render = (...args: string[]): Manifest[] => renderChart<Manifest>(helm, ...args);

const testPods = (manifests: Manifest[]): Manifest[] =>
  manifests.filter((m) => m.kind === 'Pod' && m.metadata.annotations?.['helm.sh/hook'] === 'test');
const env = (c: Container, name: string) => c.env.find((e) => e.name === name);

describe('helm test hooks', () => {
  it('are two test-hook Pods, ready before create, with the gateway image and the chart security settings', () => {
    const manifests = render();
    const pods = testPods(manifests);
    expect(pods.map((p) => [p.metadata.name, p.metadata.annotations?.['helm.sh/hook-weight']])).toEqual([
      ['pay-hosted-checkout-test-ready', '1'],
      ['pay-hosted-checkout-test-create', '2'],
    ]);
    const gateway = manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === 'pay-hosted-checkout-gateway')!;
    for (const pod of pods) {
      const [container] = pod.spec.containers;
      expect(container!.image).toBe(gateway.spec.template!.spec.containers[0]!.image);
      expect(container!.command.slice(0, 2)).toEqual(['node', '/hc-test/helm-test.ts']);
      expect(container!.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true });
      expect(pod.spec.automountServiceAccountToken).toBe(false);
      expect(pod.metadata.labels['app.kubernetes.io/component']).toBe('helm-test');
    }
  });

  it('check every Deployment through its Service, a gRPC service added by its values block included', () => {
    const manifests = render('-f', valuesWithNewService(work));
    const ready = testPods(manifests).find((p) => p.metadata.name.endsWith('-test-ready'))!;
    const targets = JSON.parse(env(ready.spec.containers[0]!, 'HC_TEST_TARGETS')!.value!) as Target[];
    const deployments = manifests.filter((m) => m.kind === 'Deployment').map((m) => m.metadata.name.replace('pay-hosted-checkout-', ''));
    expect(deployments).toEqual(expect.arrayContaining(['payouts', 'emulator', 'gateway']));
    expect(targets.map((t) => t.name).sort()).toEqual([...deployments].sort());
    const services = new Map(manifests.filter((m) => m.kind === 'Service').map((s) => [s.metadata.name, s.spec.ports!.map((p) => p.port)]));
    for (const target of targets) {
      const url = target.http ? new URL(target.http) : undefined;
      const [host, port] = url ? [url.hostname, url.port || '80'] : (target.grpc ?? target.tcp)!.split(':');
      expect(host).toBe(`pay-hosted-checkout-${target.name}.payments.svc`);
      expect(services.get(`pay-hosted-checkout-${target.name}`)).toContain(Number(port));
    }
    expect(targets.find((t) => t.name === 'payouts')).toEqual({ name: 'payouts', grpc: 'pay-hosted-checkout-payouts.payments.svc:50099' });
    expect(targets.find((t) => t.name === 'dashboard')!.http).toBe('http://pay-hosted-checkout-dashboard.payments.svc:80/dashboard/readyz');
    expect(targets.find((t) => t.name === 'emulator')!.tcp).toBeDefined();
  });

  it('are admitted by every NetworkPolicy on the service port', () => {
    const manifests = render('-f', valuesWithNewService(work));
    const policies = manifests.filter((m) => m.kind === 'NetworkPolicy');
    expect(policies.length).toBeGreaterThan(7);
    const ports = new Map(
      manifests.filter((m) => m.kind === 'Deployment').map((d) => [d.metadata.name, d.spec.template!.spec.containers[0]!]),
    );
    for (const policy of policies) {
      const admits = (policy.spec.ingress ?? []).filter((rule) =>
        (rule.from ?? []).some((f) => f.podSelector?.matchLabels['app.kubernetes.io/component'] === 'helm-test'),
      );
      expect({ policy: policy.metadata.name, admitted: admits.length }).toEqual({ policy: policy.metadata.name, admitted: 1 });
      expect(ports.has(policy.metadata.name)).toBe(true);
    }
  });

  it('take the API key from the Secret named in tests.apiKey and run the scripts of files/ as they are', () => {
    const manifests = render('--set', 'tests.apiKey.secretName=my-test-key', '--set', 'tests.apiKey.secretKey=sk');
    const create = testPods(manifests).find((p) => p.metadata.name.endsWith('-test-create'))!;
    expect(env(create.spec.containers[0]!, 'HC_TEST_API_KEY')!.valueFrom).toEqual({ secretKeyRef: { name: 'my-test-key', key: 'sk' } });
    expect(env(create.spec.containers[0]!, 'HC_TEST_GATEWAY_URL')!.value).toBe('http://pay-hosted-checkout-gateway.payments.svc:80');
    const scripts = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'pay-hosted-checkout-tests')!;
    expect(scripts.metadata.annotations?.['helm.sh/hook']).toBe('test');
    for (const file of ['helm-test.ts', 'probes.ts']) {
      expect(scripts.data![file]!.trim()).toBe(readFileSync(join(CHART, 'files', file), 'utf8').trim());
    }
  });

  it('are not rendered with tests.enabled=false, and their NetworkPolicy rule goes with them', () => {
    const manifests = render('--set', 'tests.enabled=false');
    expect(testPods(manifests)).toEqual([]);
    expect(manifests.some((m) => m.metadata.name === 'pay-hosted-checkout-tests')).toBe(false);
    expect(JSON.stringify(manifests.filter((m) => m.kind === 'NetworkPolicy'))).not.toContain('helm-test');
  });
});
