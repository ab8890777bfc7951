// Risk covered: a chart a platform team cannot install safely — a Deployment without a
// PodDisruptionBudget or autoscaler, a service reachable from anywhere or able to reach anything, a
// secret written into a manifest, telemetry variables missing, a bad value accepted silently, a new
// process (pages, emulator, dashboard) added without these, or the accounts service (merchant accounts and
// keys) reachable by anything but the gateway, the dashboard, checkout and settlement (docs/adr/0028, 0037, 0085). Rendered by a real helm (scripts/ensure-helm.sh).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';

const CHART = fileURLToPath(new URL('../hosted-checkout', import.meta.url));
const TEST_VALUES = fileURLToPath(new URL('../hosted-checkout/ci/test-values.yaml', import.meta.url));
const ENSURE_HELM = fileURLToPath(new URL('../../../scripts/ensure-helm.sh', import.meta.url));
const REQUIRED = ['--set', 'publicBaseUrl=https://pay.example.test', '--set', 'natsUrl=nats://nats:4222'];

type Manifest = {
  kind: string;
  metadata: { name: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
} & Record<string, unknown>;
interface Peer {
  podSelector?: { matchLabels: Record<string, string> };
  ipBlock?: { cidr: string; except?: string[] };
  namespaceSelector?: unknown;
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: { port: number }[];
}
interface PolicySpec {
  podSelector: { matchLabels: Record<string, string> };
  ingress: Rule[];
  egress: Rule[];
}
interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  ports?: { name: string; containerPort: number }[];
}

let helm: string;
beforeAll(() => {
  helm = execFileSync('bash', [ENSURE_HELM], { encoding: 'utf8' }).trim();
}, 180_000);

function render(...args: string[]): Manifest[] {
  const out = execFileSync(helm, ['template', 'pay', CHART, '--namespace', 'payments', ...args], { encoding: 'utf8' });
  return parseAllDocuments(out)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}
const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind);
/** The services' ConfigMaps: not the `helm test` hook's scripts (helm-test-hooks.test.ts). */
const serviceConfigMaps = (manifests: Manifest[]) => ofKind(manifests, 'ConfigMap').filter((c) => component(c) !== 'helm-test');
const component = (m: Manifest) => m.metadata.labels['app.kubernetes.io/component'];
const podLabels = (d: Manifest) => (d.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
const containers = (m: Manifest) => (m.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;

describe('helm lint --strict and the values schema', () => {
  it('lints clean with the CI test values', () => {
    const lint = spawnSync(helm, ['lint', '--strict', CHART, '-f', TEST_VALUES], { encoding: 'utf8' });
    expect({ status: lint.status, out: lint.stdout + lint.stderr }).toEqual({
      status: 0,
      out: expect.stringContaining('0 chart(s) failed'),
    });
  });

  it('refuses a bad value at install with the field named, and a database URL in values', () => {
    const bad = spawnSync(helm, ['template', 'pay', CHART, '-f', TEST_VALUES, '--set', 'natsUrl=http://nats:4222'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('natsUrl');
    const secret = spawnSync(
      helm,
      ['template', 'pay', CHART, '-f', TEST_VALUES, '--set', 'grpcServices.webhooks.database.url=postgresql://u:p@db/x'],
      {
        encoding: 'utf8',
      },
    );
    expect(secret.status).not.toBe(0);
    expect(secret.stderr).toContain('grpcServices.webhooks.database.url');
  });
});

describe('rendered with the CI test values', () => {
  let manifests: Manifest[];
  beforeAll(() => {
    manifests = render('-f', TEST_VALUES);
  });

  it('gives every Deployment a PodDisruptionBudget selecting its pods and an HPA that owns its replica count', () => {
    const deployments = ofKind(manifests, 'Deployment');
    expect(deployments.map(component).sort()).toEqual([
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
    for (const deployment of deployments) {
      const pdb = ofKind(manifests, 'PodDisruptionBudget').find((p) => p.metadata.name === deployment.metadata.name);
      expect((pdb?.spec as { selector: { matchLabels: unknown } } | undefined)?.selector.matchLabels).toEqual(podLabels(deployment));
      const hpa = ofKind(manifests, 'HorizontalPodAutoscaler').find((h) => h.metadata.name === deployment.metadata.name);
      expect(hpa?.spec).toMatchObject({ scaleTargetRef: { kind: 'Deployment', name: deployment.metadata.name }, minReplicas: 2 });
      expect(deployment.spec).not.toHaveProperty('replicas');
    }
  });

  it('gives every container probes, resource requests and limits', () => {
    for (const deployment of ofKind(manifests, 'Deployment'))
      for (const container of containers(deployment)) {
        expect(container.livenessProbe).toBeDefined();
        expect(container.readinessProbe).toBeDefined();
        expect(container.resources).toMatchObject({
          requests: { cpu: expect.any(String), memory: expect.any(String) },
          limits: { memory: expect.any(String) },
        });
      }
  });

  it('renders no Secret and takes every database URL from an existing Secret', () => {
    expect(ofKind(manifests, 'Secret')).toEqual([]);
    const text = JSON.stringify(manifests);
    expect(text).not.toMatch(/postgres(ql)?:\/\/[^"]*@/);
    for (const workload of [...ofKind(manifests, 'Deployment'), ...ofKind(manifests, 'Job')]) {
      const podSpec = (workload.spec as { template: { spec: { containers: Container[] } } }).template.spec;
      for (const container of podSpec.containers)
        for (const env of (container.env ?? []).filter((e) => e.name.endsWith('_DATABASE_URL')))
          expect(env).toEqual({ name: env.name, valueFrom: { secretKeyRef: expect.anything() } });
    }
  });

  it('gives webhooks, the dashboard and notifications their encryption keys of secrets at rest from existing Secrets, and no one else', () => {
    const keysOf = (workload: Manifest) => containers(workload)[0]!.env?.find((e) => e.name === 'SECRETS_ENCRYPTION_KEYS');
    const withKeys = ofKind(manifests, 'Deployment').filter((d) => keysOf(d) !== undefined);
    expect(withKeys.map((d) => [component(d), keysOf(d)!.valueFrom])).toEqual([
      ['dashboard', { secretKeyRef: { name: 'hc-dashboard-encryption-keys', key: 'keys' } }],
      ['notifications', { secretKeyRef: { name: 'hc-notifications-encryption-keys', key: 'keys' } }],
      ['webhooks', { secretKeyRef: { name: 'hc-webhooks-encryption-keys', key: 'keys' } }],
    ]);
    // Migrations do not need them; ConfigMaps never hold them.
    expect(ofKind(manifests, 'Job').filter((j) => keysOf(j) !== undefined)).toEqual([]);
    expect(ofKind(manifests, 'ConfigMap').filter((c) => 'SECRETS_ENCRYPTION_KEYS' in (c['data'] as object))).toEqual([]);
  });

  it('gives the dashboard alone the statement signing key from an existing Secret, and the pages and the dashboard the published keys', () => {
    const signingKeyOf = (workload: Manifest) => containers(workload)[0]!.env?.find((e) => e.name === 'STATEMENT_SIGNING_KEY');
    expect(
      ofKind(manifests, 'Deployment')
        .filter((d) => signingKeyOf(d) !== undefined)
        .map((d) => [component(d), signingKeyOf(d)!.valueFrom]),
    ).toEqual([['dashboard', { secretKeyRef: { name: 'hc-statement-signing-key', key: 'key' } }]]);
    expect(ofKind(manifests, 'Job').filter((j) => signingKeyOf(j) !== undefined)).toEqual([]);
    const keyset =
      'k202611:MCowBQYDK2VwAyEAjThhtnj1wpGzbx4tM1p5vyuYaPYEYS8bduyvGo8ecpU=,k202605:MCowBQYDK2VwAyEAjThhtnj1wpGzbx4tM1p5vyuYaPYEYS8bduyvGo8ecpU=';
    const published = render('-f', TEST_VALUES, '--set', `statementPublicKeyset=${keyset.replace(/,/g, '\\,')}`);
    const withKeyset = ofKind(published, 'ConfigMap').filter((c) => 'STATEMENT_PUBLIC_KEYSET' in (c['data'] as object));
    expect(withKeyset.map(component).sort()).toEqual(['dashboard', 'pages']);
    for (const configMap of withKeyset) expect((configMap['data'] as Record<string, string>)['STATEMENT_PUBLIC_KEYSET']).toBe(keyset);
    expect(() => render('-f', TEST_VALUES, '--set', 'statementPublicKeyset=not a key')).toThrow(/statementPublicKeyset/);
  });

  it('gives notifications its SMTP credentials from an existing Secret, and refuses a password written into values', () => {
    const notifications = ofKind(manifests, 'Deployment').find((d) => component(d) === 'notifications')!;
    const env = containers(notifications)[0]!.env ?? [];
    expect(env.filter((e) => e.name.startsWith('SMTP_'))).toEqual([
      { name: 'SMTP_PASSWORD', valueFrom: { secretKeyRef: { name: 'hc-notifications-smtp', key: 'password' } } },
      { name: 'SMTP_USER', valueFrom: { secretKeyRef: { name: 'hc-notifications-smtp', key: 'user' } } },
    ]);
    const config = ofKind(manifests, 'ConfigMap').find((c) => component(c) === 'notifications')!['data'] as Record<string, string>;
    expect(config).toMatchObject({
      SMTP_HOST: 'smtp.invalid',
      SMTP_SECURITY: 'starttls',
      NOTIFICATIONS_GRPC_ADDRESS: expect.stringMatching(/:50058$/),
    });
    expect(config).not.toHaveProperty('SMTP_PASSWORD');
    const inline = spawnSync(
      helm,
      ['template', 'pay', CHART, '-f', TEST_VALUES, '--set', 'grpcServices.notifications.env.SMTP_PASSWORD=hunter2'],
      {
        encoding: 'utf8',
      },
    );
    expect(inline.status).not.toBe(0);
    expect(inline.stderr).toContain('grpcServices.notifications.env.SMTP_PASSWORD');
  });

  it('refuses encryption keys written into values', () => {
    const inline = spawnSync(helm, ['template', 'pay', CHART, '-f', TEST_VALUES, '--set', 'dashboard.env.SECRETS_ENCRYPTION_KEYS=k1:abc'], {
      encoding: 'utf8',
    });
    expect(inline.status).not.toBe(0);
    expect(inline.stderr).toContain('dashboard.env.SECRETS_ENCRYPTION_KEYS');
  });

  it('runs migrations as pre-install/pre-upgrade hooks', () => {
    const jobs = ofKind(manifests, 'Job');
    expect(jobs.map(component).sort()).toEqual(
      ['accounts', 'checkout', 'customers', 'dashboard', 'gateway', 'notifications', 'settlement', 'webhooks'].map(
        (name) => `${name}-migration`,
      ),
    );
    for (const job of jobs) expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
  });

  it('wires the OTEL_* variables and a metrics port into every service', () => {
    for (const configMap of serviceConfigMaps(manifests)) {
      expect(configMap['data']).toMatchObject({
        OTEL_SERVICE_NAME: `hc-${component(configMap)}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability.svc:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'otlp,prometheus',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      });
    }
    for (const deployment of ofKind(manifests, 'Deployment'))
      expect(containers(deployment)[0]!.ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
  });

  it('gives every service NATS_STREAM_REPLICAS from nats.streamReplicas (1 by default, 3 for a cluster) and a natsUrl listing nodes', () => {
    for (const configMap of serviceConfigMaps(manifests)) expect(configMap['data']).toMatchObject({ NATS_STREAM_REPLICAS: '1' });
    // A three-node cluster, as deploy/README.md shows it (a values file: a comma would split a --set).
    const urls = ['nats-0', 'nats-1', 'nats-2'].map((node) => `tls://${node}.nats-headless.messaging.svc:4222`).join(',');
    const cluster = render(...REQUIRED, '--set', 'nats.streamReplicas=3', '--set-string', `natsUrl=${urls.replace(/,/g, '\\,')}`);
    const configMaps = serviceConfigMaps(cluster);
    expect(configMaps.length).toBeGreaterThanOrEqual(9);
    for (const configMap of configMaps) expect(configMap['data']).toMatchObject({ NATS_STREAM_REPLICAS: '3', NATS_URL: urls });
    for (const bad of ['0', '6', '1.5']) {
      const refused = spawnSync(helm, ['template', 'pay', CHART, ...REQUIRED, '--set', `nats.streamReplicas=${bad}`], { encoding: 'utf8' });
      expect({ bad, status: refused.status, stderr: refused.stderr }).toEqual({
        bad,
        status: 1,
        stderr: expect.stringContaining('streamReplicas'),
      });
    }
  });

  describe('NetworkPolicies', () => {
    const policy = (name: string): PolicySpec => {
      const found = ofKind(manifests, 'NetworkPolicy').find((p) => component(p) === name);
      expect(found).toBeDefined();
      return found!.spec as unknown as PolicySpec;
    };
    const fromPods = (rules: Rule[]) =>
      rules.flatMap((r) => r.from ?? []).map((p) => p.podSelector?.matchLabels['app.kubernetes.io/component']);
    const SERVICE_PORTS = {
      gateway: 8080,
      checkout: 50051,
      settlement: 50052,
      customers: 50053,
      webhooks: 50054,
      accounts: 50055,
      notifications: 50058,
    };

    it('select the pods of each Deployment and deny what they do not allow in both directions', () => {
      for (const deployment of ofKind(manifests, 'Deployment')) {
        const spec = policy(component(deployment)!);
        expect(spec.podSelector.matchLabels).toEqual(podLabels(deployment));
        expect(spec).toMatchObject({ policyTypes: ['Ingress', 'Egress'] });
      }
    });

    it('let only the gateway be reached from outside (the ingress controller), on its HTTP port', () => {
      const gateway = policy('gateway').ingress.find((r) => r.ports?.[0]?.port === SERVICE_PORTS.gateway);
      expect(gateway?.from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }]);
      for (const name of ['checkout', 'settlement', 'customers', 'webhooks', 'accounts'] as const) {
        const servicePort = policy(name).ingress.filter((r) => r.ports?.some((p) => p.port === SERVICE_PORTS[name]));
        expect(servicePort.every((r) => (r.from ?? []).length > 0 && r.from!.every((p) => p.podSelector))).toBe(true);
      }
    });

    it('let each gRPC service be called only by its callers', () => {
      // The `helm test` pods are admitted to every service (helm-test-hooks.test.ts); these are the services.
      const callers = (name: keyof typeof SERVICE_PORTS) =>
        fromPods(policy(name).ingress.filter((r) => r.ports?.some((p) => p.port === SERVICE_PORTS[name]))).filter((c) => c !== 'helm-test');
      expect(callers('checkout')).toEqual(['gateway', 'pages', 'dashboard']);
      expect(callers('settlement')).toEqual(['checkout']);
      expect(callers('customers')).toEqual(['gateway', 'dashboard']);
      expect(callers('webhooks')).toEqual(['gateway', 'dashboard']);
      expect(callers('notifications')).toEqual(['pages', 'dashboard']);
      // Accounts: the gateway's key directory, the dashboard's keys, the account checkout and settlement read (ADR 0085),
      // the shop's brand the pages and the receipts show (ADR 0096).
      expect(callers('accounts')).toEqual(['gateway', 'dashboard', 'checkout', 'settlement', 'pages', 'notifications']);
    });

    it('let out only DNS, PostgreSQL, NATS, OTLP and the services called; the internet only for webhooks and notifications (SMTP), never private ranges', () => {
      const portsOut = (name: string) => policy(name).egress.flatMap((r) => (r.ports ?? []).map((p) => p.port));
      // 50056: the dashboard's users listener, which the operator CLI (run in a gateway pod) calls.
      expect(new Set(portsOut('gateway'))).toEqual(new Set([53, 5432, 4222, 4317, 4318, 50051, 50053, 50054, 50055, 50056]));
      expect(new Set(portsOut('dashboard'))).toEqual(new Set([53, 5432, 4222, 4317, 4318, 50051, 50053, 50054, 50055, 50058]));
      // 50058: notifications, which the pages ask whether a receipt is sent; 50055: accounts, the shop's brand (ADR 0096).
      expect(new Set(portsOut('pages'))).toEqual(new Set([53, 5432, 4222, 4317, 4318, 50051, 50055, 50058]));
      // 50056: the dashboard's users listener, which notifications asks about Test receipts' addresses.
      expect(portsOut('notifications')).toContain(50056);
      // 50055: accounts, where checkout reads the account a buyer pays (ADR 0037, 0085); never the gateway.
      expect(new Set(portsOut('checkout'))).toEqual(new Set([53, 5432, 4222, 4317, 4318, 50052, 50055]));
      const internet = (name: string) => policy(name).egress.filter((r) => r.to?.some((p) => p.ipBlock?.cidr === '0.0.0.0/0'));
      for (const name of ['gateway', 'checkout', 'settlement', 'customers']) expect(internet(name)).toEqual([]);
      for (const name of ['webhooks', 'notifications']) {
        expect(internet(name)).toHaveLength(1);
        expect(internet(name)[0]!.to![0]!.ipBlock!.except).toEqual(
          expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']),
        );
      }
      expect(policy('webhooks').egress.find((r) => r.ports?.[0]?.port === 5432)?.to).toEqual([{ ipBlock: { cidr: '10.20.0.0/16' } }]);
    });
  });
});

describe("settlement's notices listener", () => {
  const manifests = () => render(...REQUIRED, '--set', 'emulator.enabled=true');
  const policyOf = (all: Manifest[], name: string) =>
    ofKind(all, 'NetworkPolicy').find((p) => component(p) === name)!.spec as unknown as PolicySpec;

  it('is a named container port and Service port, equal to SETTLEMENT_NOTICES_ADDRESS', () => {
    const all = manifests();
    const settlement = ofKind(all, 'Deployment').find((d) => component(d) === 'settlement')!;
    expect(containers(settlement)[0]!.ports).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'notices', containerPort: 8091 })]),
    );
    const service = ofKind(all, 'Service').find((s) => component(s) === 'settlement')!;
    expect((service.spec as { ports: { name: string; port: number }[] }).ports.map((p) => `${p.name}:${p.port}`)).toEqual([
      'grpc:50052',
      'notices:8091',
    ]);
    const config = ofKind(all, 'ConfigMap').find((c) => component(c) === 'settlement')!['data'] as Record<string, string>;
    expect(config['SETTLEMENT_NOTICES_ADDRESS']).toBe('0.0.0.0:8091');
    expect(config['CHAIN_CHECK_INTERVAL_MS']).toBe('30000');
    expect(containers(settlement)[0]!.env!.find((e) => e.name === 'NOTICE_SIGNING_SECRET')?.valueFrom).toEqual({
      secretKeyRef: { name: 'hc-settlement-notices', key: 'secret' },
    });
  });

  it('is reachable from outside (publicFrom) and from the emulator, while gRPC stays checkout-only', () => {
    const all = manifests();
    const ingress = policyOf(all, 'settlement').ingress;
    const onNotices = ingress.filter((r) => r.ports?.some((p) => p.port === 8091));
    expect(onNotices.map((r) => r.from?.[0]?.podSelector?.matchLabels['app.kubernetes.io/component'] ?? 'public')).toEqual([
      'public',
      'emulator',
    ]);
    const onGrpc = ingress.filter((r) => r.ports?.some((p) => p.port === 50052));
    expect(onGrpc.flatMap((r) => r.from ?? []).map((p) => p.podSelector?.matchLabels['app.kubernetes.io/component'])).toEqual([
      'checkout',
      'helm-test',
    ]);
    const emulatorOut = policyOf(all, 'emulator').egress;
    expect(
      emulatorOut.some(
        (r) => r.ports?.[0]?.port === 8091 && r.to?.[0]?.podSelector?.matchLabels['app.kubernetes.io/component'] === 'settlement',
      ),
    ).toBe(true);
    const settlementOut = policyOf(all, 'settlement').egress;
    expect(
      settlementOut.some(
        (r) => r.ports?.[0]?.port === 8090 && r.to?.[0]?.podSelector?.matchLabels['app.kubernetes.io/component'] === 'emulator',
      ),
    ).toBe(true);
  });
});

describe("settlement's notice signing secret (issue 35, item 5)", () => {
  const template = (...args: string[]) =>
    spawnSync(helm, ['template', 'pay', CHART, ...REQUIRED, ...args], {
      encoding: 'utf8',
    });

  it('is required: no Secret named for NOTICE_SIGNING_SECRET stops the install with the field named', () => {
    for (const unset of ['grpcServices.settlement.secretEnv=null', 'grpcServices.settlement.secretEnv.NOTICE_SIGNING_SECRET=null']) {
      const refused = template('--set', unset);
      expect({ status: refused.status, stderr: refused.stderr }).toEqual({
        status: 1,
        stderr: expect.stringMatching(/grpcServices\.settlement(\.secretEnv)?: (secretEnv|NOTICE_SIGNING_SECRET) is required/),
      });
    }
    const blank = template('--set', 'grpcServices.settlement.secretEnv.NOTICE_SIGNING_SECRET.secretName=');
    expect(blank.status).toBe(1);
    expect(blank.stderr).toContain('grpcServices.settlement.secretEnv.NOTICE_SIGNING_SECRET.secretName');
  });

  it('never comes from values, and local mode (the published secret) is refused in a cluster', () => {
    for (const variable of ['NOTICE_SIGNING_SECRET=whsec_x', 'SETTLEMENT_LOCAL_MODE=true']) {
      const refused = template('--set', `grpcServices.settlement.env.${variable}`);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`grpcServices.settlement.env.${variable.split('=')[0]}`);
    }
  });

  it('is not asked of a release without settlement', () => {
    const off = template('--set', 'grpcServices.settlement.enabled=false', '--set', 'grpcServices.settlement.secretEnv=null');
    expect(off.status).toBe(0);
  });
});

describe('the merchant dashboard and the accounts service', () => {
  type Port = { name: string; port: number; containerPort?: number };
  type Ingress = {
    spec: { rules: { http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] } }[] };
  };
  const byComponent = (all: Manifest[], kind: string, name: string) => ofKind(all, kind).find((m) => component(m) === name)!;
  const configOf = (all: Manifest[], name: string) => byComponent(all, 'ConfigMap', name)['data'] as Record<string, string>;
  const servicePorts = (all: Manifest[], name: string) =>
    (byComponent(all, 'Service', name).spec as { ports: Port[] }).ports.map((p) => `${p.name}:${p.port}`);
  const policyOf = (all: Manifest[], name: string) => byComponent(all, 'NetworkPolicy', name).spec as unknown as PolicySpec;
  const onPort = (rules: Rule[], port: number) => rules.filter((r) => r.ports?.some((p) => p.port === port));
  const peers = (rules: Rule[]) =>
    rules.flatMap((r) => r.from ?? r.to ?? [{}]).map((p) => p.podSelector?.matchLabels['app.kubernetes.io/component'] ?? 'outside');
  const ingressPaths = (all: Manifest[]) =>
    (ofKind(all, 'Ingress')[0] as unknown as Ingress).spec.rules[0]!.http.paths.map(
      (p) => `${p.path} ${p.backend.service.name}:${p.backend.service.port.name}`,
    );
  let all: Manifest[];
  beforeAll(() => {
    all = render('-f', TEST_VALUES);
  });

  it('runs with secure cookies, the proxy hop of the Ingress, its database from a Secret and probes under /dashboard', () => {
    expect(configOf(all, 'dashboard')).toMatchObject({
      DASHBOARD_HOST: '0.0.0.0',
      DASHBOARD_PORT: '8083',
      DASHBOARD_GRPC_ADDRESS: '0.0.0.0:50056',
      DASHBOARD_SECURE_COOKIES: 'true',
      DASHBOARD_TRUST_PROXY_HOPS: '1',
      ACCOUNTS_GRPC_ADDRESS: 'dns:///pay-hosted-checkout-accounts-headless.payments.svc:50055',
      CHECKOUT_GRPC_ADDRESS: 'dns:///pay-hosted-checkout-checkout-headless.payments.svc:50051',
      PUBLIC_BASE_URL: 'https://pay.example.test',
    });
    const [container] = containers(byComponent(all, 'Deployment', 'dashboard'));
    expect(container!.livenessProbe).toMatchObject({ httpGet: { path: '/dashboard/healthz', port: 'http' } });
    expect(container!.readinessProbe).toMatchObject({ httpGet: { path: '/dashboard/readyz', port: 'http' } });
    expect(container!.env).toContainEqual({
      name: 'DASHBOARD_DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'hc-dashboard-database', key: 'url' } },
    });
    expect(servicePorts(all, 'dashboard')).toEqual(['http:80', 'grpc:50056']);
  });

  it('is published at /dashboard (its http port only) before the gateway catch-all', () => {
    expect(ingressPaths(all)).toEqual([
      '/pay pay-hosted-checkout-pages:http',
      '/track pay-hosted-checkout-pages:http',
      '/c pay-hosted-checkout-pages:http',
      '/docs pay-hosted-checkout-pages:http',
      '/.well-known/hc-statement-keys.json pay-hosted-checkout-pages:http',
      '/dashboard pay-hosted-checkout-dashboard:http',
      '/ pay-hosted-checkout-gateway:http',
    ]);
  });

  it('lets only the gateway, the dashboard, checkout, settlement, the pages and notifications reach accounts; the gateway has no admin port', () => {
    expect(configOf(all, 'accounts')['ACCOUNTS_GRPC_ADDRESS']).toBe('0.0.0.0:50055');
    expect(configOf(all, 'gateway')).not.toHaveProperty('GATEWAY_ADMIN_GRPC_ADDRESS');
    expect(configOf(all, 'gateway')['DASHBOARD_GRPC_ADDRESS']).toBe('pay-hosted-checkout-dashboard.payments.svc:50056');
    expect(servicePorts(all, 'gateway')).toEqual(['http:80']);
    expect(servicePorts(all, 'accounts')[0]).toMatch(/:50055$/);
    const accountsIn = policyOf(all, 'accounts').ingress;
    // The gateway's key directory, the dashboard's keys, the account checkout and settlement read (ADR 0037, 0081, 0085),
    // the brand the pages and the receipts show (ADR 0096).
    expect(peers(onPort(accountsIn, 50055))).toEqual([
      'gateway',
      'dashboard',
      'checkout',
      'settlement',
      'pages',
      'notifications',
      'helm-test',
    ]);
    expect(peers(onPort(policyOf(all, 'gateway').ingress, 8080))).toEqual(['outside', 'helm-test']);
    for (const name of ['gateway', 'checkout', 'settlement'])
      expect(configOf(all, name)['ACCOUNTS_GRPC_ADDRESS']).toBe('dns:///pay-hosted-checkout-accounts-headless.payments.svc:50055');
    // Nothing else may even try: no other workload has egress to accounts' port.
    const accountsCallers = ['gateway', 'dashboard', 'checkout', 'settlement', 'pages', 'notifications'];
    for (const policy of ofKind(all, 'NetworkPolicy').filter((p) => !accountsCallers.includes(component(p) ?? '')))
      expect(onPort((policy.spec as unknown as PolicySpec).egress, 50055)).toEqual([]);
    // Checkout never calls the gateway.
    expect(onPort(policyOf(all, 'checkout').egress, 8080)).toEqual([]);
    // The dashboard's own gRPC port (operator users create) is for the gateway's pods, where the CLI runs,
    // and notifications (is a Test receipt's address one of the account's users?).
    expect(peers(onPort(policyOf(all, 'dashboard').ingress, 50056))).toEqual(['gateway', 'notifications']);
    expect(configOf(all, 'notifications')['DASHBOARD_GRPC_ADDRESS']).toBe('pay-hosted-checkout-dashboard.payments.svc:50056');
    expect(peers(onPort(policyOf(all, 'dashboard').ingress, 8083))).toEqual(['outside', 'helm-test']);
  });

  it("leaves no trace when disabled: no Deployment, route, migration, or way in to accounts but the others'", () => {
    const without = render('-f', TEST_VALUES, '--set', 'dashboard.enabled=false');
    expect(ofKind(without, 'Deployment').map(component)).not.toContain('dashboard');
    expect(ofKind(without, 'Job').map(component)).not.toContain('dashboard-migration');
    expect(ingressPaths(without).map((p) => p.split(' ')[0])).toEqual([
      '/pay',
      '/track',
      '/c',
      '/docs',
      '/.well-known/hc-statement-keys.json',
      '/',
    ]);
    expect(peers(onPort(policyOf(without, 'accounts').ingress, 50055))).toEqual([
      'gateway',
      'checkout',
      'settlement',
      'pages',
      'notifications',
      'helm-test',
    ]);
    expect(configOf(without, 'gateway')).not.toHaveProperty('DASHBOARD_GRPC_ADDRESS');
  });
});

describe('defaults and new processes', () => {
  it('without telemetry values sets no exporter (services load no telemetry), only the service name', () => {
    const data = serviceConfigMaps(render(...REQUIRED)).map((c) => c['data'] as Record<string, string>);
    for (const config of data) expect(Object.keys(config).filter((k) => k.startsWith('OTEL_'))).toEqual(['OTEL_SERVICE_NAME']);
  });

  it('gives a new process its PodDisruptionBudget, HPA and NetworkPolicy from its values block alone', () => {
    const manifests = render(
      ...REQUIRED,
      '--set-json',
      'emulator={"enabled":true,"image":{"repository":"emulator"},"port":50060,"callers":["checkout"],"resources":{"requests":{"cpu":"50m","memory":"64Mi"},"limits":{"cpu":"1","memory":"256Mi"}}}',
    );
    for (const kind of ['PodDisruptionBudget', 'HorizontalPodAutoscaler', 'NetworkPolicy'])
      expect(ofKind(manifests, kind).map((m) => m.metadata.name)).toContain('pay-hosted-checkout-emulator');
    const checkout = ofKind(manifests, 'NetworkPolicy').find((p) => component(p) === 'checkout')!.spec as unknown as PolicySpec;
    expect(
      checkout.egress.some(
        (r) => r.ports?.[0]?.port === 50060 && r.to?.[0]?.podSelector?.matchLabels['app.kubernetes.io/component'] === 'emulator',
      ),
    ).toBe(true);
  });
});
