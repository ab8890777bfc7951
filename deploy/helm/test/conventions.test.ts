// Risk covered: a chart that misses what a platform team expects of a well-kept chart (issue 45, item 4;
// bitnami's common conventions): pods running as the namespace's default ServiceAccount with an API token
// mounted and no place for workload-identity annotations; no way to add a variable, an envFrom source, a
// volume (a CA bundle), pod annotations or labels, an init container or a sidecar without forking the
// chart; images that cannot come from a mirror (global.imageRegistry) or be pinned by digest; no
// kubeVersion; no startupProbe, so a slow first start is killed by liveness; no NOTES.txt telling how to
// reach the gateway, make the first merchant and find the dashboards. Rendered by a real helm.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { CHART, REQUIRED, ensureHelm, renderChart } from './render.ts';

const TEST_VALUES = join(CHART, 'ci/test-values.yaml');
const DIGEST = `sha256:${'ab'.repeat(32)}`;

interface Container {
  name: string;
  image: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  envFrom?: unknown[];
  volumeMounts?: { name: string; mountPath: string }[];
  startupProbe?: Record<string, unknown>;
  livenessProbe?: Record<string, unknown>;
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    serviceAccountName?: string;
    automountServiceAccountToken?: boolean;
    volumes: { name: string }[];
    initContainers?: Container[];
    containers: Container[];
  };
}
interface Manifest {
  kind: string;
  metadata: { name: string; labels: Record<string, string>; annotations?: Record<string, string> };
  automountServiceAccountToken?: boolean;
  spec?: { template: PodTemplate };
}

let helm: string;
let work: string;
beforeAll(() => {
  helm = ensureHelm();
  work = mkdtempSync(join(tmpdir(), 'hc-conventions-'));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const render = (...args: string[]): Manifest[] => renderChart<Manifest>(helm, ...args);
const component = (m: Manifest) => m.metadata.labels['app.kubernetes.io/component']!;
const ofKind = (all: Manifest[], kind: string) => all.filter((m) => m.kind === kind);
const pod = (m: Manifest) => m.spec!.template;
const valuesFile = (name: string, values: object): string => {
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(values));
  return file;
};

describe('ServiceAccounts', () => {
  it('are one per Deployment by default, with no API token mounted, and the pods run as them', () => {
    const all = render('-f', TEST_VALUES, '--set', 'emulator.enabled=true');
    const accounts = ofKind(all, 'ServiceAccount');
    const deployments = ofKind(all, 'Deployment');
    expect(accounts.map(component).sort()).toEqual(deployments.map(component).sort());
    for (const account of accounts) expect(account.automountServiceAccountToken).toBe(false);
    for (const deployment of deployments) {
      expect(pod(deployment).spec).toMatchObject({
        serviceAccountName: `pay-hosted-checkout-${component(deployment)}`,
        automountServiceAccountToken: false,
      });
    }
  });

  it('take workload-identity annotations, a name of their own, or an existing account', () => {
    const all = render(
      '-f',
      valuesFile('accounts.json', {
        gateway: { serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/gw' }, name: 'gw' } },
        grpcServices: { webhooks: { serviceAccount: { create: false, name: 'platform-webhooks' } } },
        pages: { serviceAccount: { create: false } },
      }),
    );
    const gateway = ofKind(all, 'ServiceAccount').find((a) => component(a) === 'gateway')!;
    expect(gateway.metadata).toMatchObject({ name: 'gw', annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/gw' } });
    expect(ofKind(all, 'ServiceAccount').map(component)).not.toEqual(expect.arrayContaining(['webhooks']));
    const deployment = (name: string) => ofKind(all, 'Deployment').find((d) => component(d) === name)!;
    expect(pod(deployment('gateway')).spec.serviceAccountName).toBe('gw');
    expect(pod(deployment('webhooks')).spec.serviceAccountName).toBe('platform-webhooks');
    expect(pod(deployment('pages')).spec.serviceAccountName).toBe('default');
    // A migration hook runs before the release's own accounts exist: only an existing one is named.
    const job = (name: string) => ofKind(all, 'Job').find((j) => component(j) === `${name}-migration`)!;
    expect(pod(job('webhooks')).spec.serviceAccountName).toBe('platform-webhooks');
    expect(pod(job('gateway')).spec).not.toHaveProperty('serviceAccountName');
  });
});

describe('pod additions, chart-wide and per service', () => {
  const additions = {
    podAnnotations: { 'example.com/team': 'payments' },
    podLabels: { 'example.com/cost-center': 'pay', 'app.kubernetes.io/component': 'not-the-selector' },
    extraEnv: [{ name: 'NODE_EXTRA_CA_CERTS', value: '/etc/company-ca/ca.crt' }],
    extraEnvFrom: [{ configMapRef: { name: 'company-proxy' } }],
    extraVolumes: [{ name: 'company-ca', configMap: { name: 'company-ca' } }],
    extraVolumeMounts: [{ name: 'company-ca', mountPath: '/etc/company-ca', readOnly: true }],
    gateway: {
      podAnnotations: { 'example.com/scrape': 'yes' },
      extraEnv: [{ name: 'GATEWAY_EXTRA', valueFrom: { secretKeyRef: { name: 'gw-extra', key: 'value' } } }],
      initContainers: [{ name: 'wait-for-db', image: 'busybox:1.36', command: ['true'] }],
      sidecars: [{ name: 'proxy', image: 'envoyproxy/envoy:v1.31.0' }],
    },
  };
  let all: Manifest[];
  beforeAll(() => {
    all = render('-f', TEST_VALUES, '-f', valuesFile('additions.json', additions));
  });

  it("reach every Deployment's pods and container, the chart's own labels winning over podLabels", () => {
    for (const deployment of ofKind(all, 'Deployment')) {
      const template = pod(deployment);
      expect(template.metadata.labels).toMatchObject({
        'example.com/cost-center': 'pay',
        'app.kubernetes.io/component': component(deployment),
      });
      expect(template.metadata.annotations).toMatchObject({ 'example.com/team': 'payments', 'checksum/config': expect.any(String) });
      expect(template.spec.volumes.map((v) => v.name)).toEqual(['tmp', 'company-ca']);
      const main = template.spec.containers[0]!;
      expect(main.env).toContainEqual({ name: 'NODE_EXTRA_CA_CERTS', value: '/etc/company-ca/ca.crt' });
      expect(main.envFrom).toEqual([{ configMapRef: { name: deployment.metadata.name } }, { configMapRef: { name: 'company-proxy' } }]);
      expect(main.volumeMounts).toContainEqual({ name: 'company-ca', mountPath: '/etc/company-ca', readOnly: true });
    }
  });

  it("add a service's own after the chart-wide ones, its init containers and sidecars to its Deployment only", () => {
    const gateway = pod(ofKind(all, 'Deployment').find((d) => component(d) === 'gateway')!);
    expect(gateway.metadata.annotations).toMatchObject({ 'example.com/team': 'payments', 'example.com/scrape': 'yes' });
    expect(gateway.spec.containers[0]!.env!.map((e) => e.name).slice(-2)).toEqual(['NODE_EXTRA_CA_CERTS', 'GATEWAY_EXTRA']);
    expect(gateway.spec.initContainers?.map((c) => c.name)).toEqual(['wait-for-db']);
    expect(gateway.spec.containers.map((c) => c.name)).toEqual(['gateway', 'proxy']);
    const checkout = pod(ofKind(all, 'Deployment').find((d) => component(d) === 'checkout')!);
    expect(checkout.spec.initContainers).toBeUndefined();
    expect(checkout.spec.containers.map((c) => c.name)).toEqual(['checkout']);
  });

  it('give migration Jobs the variables, envFrom sources and volumes (a CA for the database), never init containers or sidecars', () => {
    for (const job of ofKind(all, 'Job')) {
      const template = pod(job);
      expect(template.spec.volumes.map((v) => v.name)).toEqual(['tmp', 'company-ca']);
      expect(template.spec.containers.map((c) => c.name)).toEqual(['migrate']);
      expect(template.spec.initContainers).toBeUndefined();
      expect(template.spec.containers[0]!.envFrom).toEqual([{ configMapRef: { name: 'company-proxy' } }]);
      expect(template.spec.containers[0]!.env).toContainEqual({ name: 'NODE_EXTRA_CA_CERTS', value: '/etc/company-ca/ca.crt' });
    }
  });

  it('are checked by the schema: a mount without mountPath, an extraEnv entry without a name, a stray key', () => {
    for (const [set, named] of [
      ['extraVolumeMounts[0].name=x', 'mountPath'],
      ['gateway.extraEnv[0].value=x', 'name'],
      ['grpcServices.checkout.serviceAccount.annotatons.a=b', 'annotatons'],
    ] as const) {
      const refused = spawnSync(helm, ['template', 'pay', CHART, ...REQUIRED, '--set', set], { encoding: 'utf8' });
      expect({ status: refused.status, named: refused.stderr.includes(named) }).toEqual({ status: 1, named: true });
    }
  });
});

describe('images', () => {
  const images = (all: Manifest[]) =>
    Object.fromEntries(ofKind(all, 'Deployment').map((d) => [component(d), pod(d).spec.containers[0]!.image]));

  it('come from global.imageRegistry when set (a mirror, an umbrella chart), else image.registry', () => {
    expect(images(render())['gateway']).toBe('registry.example.com/hosted-checkout/gateway:0.1.0');
    expect(images(render('--set', 'global.imageRegistry=mirror.internal/hc/'))['checkout']).toBe('mirror.internal/hc/checkout:0.1.0');
  });

  it("are pulled by digest when a service's image.digest is set (the tag no longer counts), in its migration Job too", () => {
    const all = render('--set', `grpcServices.checkout.image.digest=${DIGEST}`, '--set', 'grpcServices.checkout.image.tag=9.9.9');
    expect(images(all)['checkout']).toBe(`registry.example.com/hosted-checkout/checkout@${DIGEST}`);
    expect(images(all)['gateway']).toBe('registry.example.com/hosted-checkout/gateway:0.1.0');
    const job = ofKind(all, 'Job').find((j) => component(j) === 'checkout-migration')!;
    expect(pod(job).spec.containers[0]!.image).toBe(`registry.example.com/hosted-checkout/checkout@${DIGEST}`);
    const bad = spawnSync(helm, ['template', 'pay', CHART, ...REQUIRED, '--set', 'gateway.image.digest=latest'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('gateway.image.digest');
  });
});

describe('Chart.yaml and probes', () => {
  it('declares the Kubernetes versions it needs (native gRPC probes: 1.27), and helm refuses an older cluster', () => {
    expect(parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8'))).toMatchObject({ kubeVersion: '>=1.27.0-0' });
    const old = spawnSync(helm, ['template', 'pay', CHART, ...REQUIRED, '--kube-version', '1.26.0'], { encoding: 'utf8' });
    expect(old.status).toBe(1);
    expect(old.stderr).toContain('kubeVersion');
  });

  it('gives every long-running container a startupProbe with the liveness check (TCP for the emulator)', () => {
    const all = render('-f', TEST_VALUES, '--set', 'emulator.enabled=true');
    for (const deployment of ofKind(all, 'Deployment')) {
      const main = pod(deployment).spec.containers[0]!;
      expect(main.startupProbe).toMatchObject({ periodSeconds: 2, failureThreshold: 60 });
      const check = (probe: Record<string, unknown> | undefined) =>
        Object.fromEntries(Object.entries(probe ?? {}).filter(([k]) => ['httpGet', 'grpc', 'tcpSocket'].includes(k)));
      if (component(deployment) === 'emulator') expect(main.startupProbe).toMatchObject({ tcpSocket: { port: 'http' } });
      else expect(check(main.startupProbe)).toEqual(check(main.livenessProbe));
    }
  });
});

describe('NOTES.txt', () => {
  /** The chart's NOTES.txt as `helm install` would print it: rendered by helm template through a copy of the chart that emits it as a ConfigMap. */
  function notes(...args: string[]): string {
    const copy = join(work, `chart-${Math.random().toString(36).slice(2)}`);
    cpSync(CHART, copy, { recursive: true });
    const text = readFileSync(join(copy, 'templates/NOTES.txt'), 'utf8');
    renameSync(join(copy, 'templates/NOTES.txt'), join(copy, 'templates/_notes.tpl'));
    writeFileSync(join(copy, 'templates/_notes.tpl'), `{{- define "test.notes" -}}\n${text}\n{{- end -}}\n`);
    writeFileSync(
      join(copy, 'templates/notes.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  notes: {{ include "test.notes" . | quote }}\n',
    );
    const out = execFileSync(
      helm,
      ['template', 'pay', copy, '--namespace', 'payments', ...REQUIRED, ...args, '--show-only', 'templates/notes.yaml'],
      {
        encoding: 'utf8',
      },
    );
    return (parse(out) as { data: { notes: string } }).data.notes;
  }

  it('says how to reach the gateway, make the first merchant with the operator CLI, and where the dashboards are', () => {
    const text = notes('-f', TEST_VALUES);
    expect(text).toContain('https://pay.example.test/v1');
    expect(text).toContain('kubectl -n payments port-forward svc/pay-hosted-checkout-gateway 8080:80');
    expect(text).toMatch(
      /exec deploy\/pay-hosted-checkout-gateway -- node tools\/operator\/src\/operator\.ts \\\n\s+accounts create --name/,
    );
    expect(text).toMatch(/keys create acct_… --mode test/);
    expect(text).toMatch(/users create acct_… --email/);
    expect(text).toContain('The merchant dashboard: https://pay.example.test/dashboard');
    expect(text).toContain('"metrics" port (9464, /metrics)');
    expect(text).not.toContain('emulator');
  });

  it('warns when the emulator is on', () => {
    expect(notes('--set', 'emulator.enabled=true')).toContain('WARNING: the processor emulator is enabled');
  });
});
