// Risk covered: a credential in a ConfigMap (issue 45, item 3) — a database URL with its password, a
// NATS login in NATS_URL, an SMTP password, the OTLP exporter's API-key headers, or any *PASSWORD* /
// *SECRET* / *TOKEN* variable set through `env` (which the chart writes into the service's ConfigMap,
// readable by anyone who may read ConfigMaps) or through a plain `extraEnv` value. It proves: the schema
// refuses each of them with a message that says where the credential goes instead; every documented
// configuration (the defaults, the CI and chart:run values, deploy/README.md's install command and its
// values examples, and one with every credential option on) renders no Secret and no ConfigMap that
// holds a credential-like key or a URL with a login; credential variables reach the pods only through
// secretKeyRef or as paths of files mounted from Secrets; the NATS login and TLS files are mounted into
// the gRPC services only. Rendered by a real helm (scripts/ensure-helm.sh).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, parseAllDocuments } from 'yaml';

const CHART = fileURLToPath(new URL('../hosted-checkout', import.meta.url));
const TEST_VALUES = fileURLToPath(new URL('../hosted-checkout/ci/test-values.yaml', import.meta.url));
const CHART_RUN_VALUES = fileURLToPath(new URL('../chart-run/values.yaml', import.meta.url));
const DEPLOY_README = fileURLToPath(new URL('../../README.md', import.meta.url));
/** What step 1's $STATEMENT_KEY holds: a statement public key entry (keyId:base64 SPKI DER). */
const STATEMENT_KEY_EXAMPLE = 's202611:MCowBQYDK2VwAyEAjThhtnj1wpGzbx4tM1p5vyuYaPYEYS8bduyvGo8ecpU=';
const ENSURE_HELM = fileURLToPath(new URL('../../../scripts/ensure-helm.sh', import.meta.url));
const REQUIRED = ['--set', 'publicBaseUrl=https://pay.example.test', '--set', 'natsUrl=nats://nats:4222'];

/** Names that carry a credential (the schema's list), and a URL with a login in it. */
const CREDENTIAL_NAME =
  /(PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|PRIVATE_KEY|API_KEY|_KEYS$|_SEED$|^(SMTP_USER|NATS_USER|NATS_CREDS_FILE|NATS_NKEY_SEED_FILE)$|DATABASE_URL$|^NATS_URL$|^OTEL_EXPORTER_OTLP_([A-Z]+_)?HEADERS$)/;
const URL_WITH_LOGIN = /:\/\/[^/?#\s]*@/;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  env?: EnvVar[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: { template?: { spec: { containers: Container[]; volumes?: { name: string }[] } } };
}

let helm: string;
let work: string;
beforeAll(() => {
  helm = execFileSync('bash', [ENSURE_HELM], { encoding: 'utf8' }).trim();
  work = mkdtempSync(join(tmpdir(), 'hc-secrets-'));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const template = (...args: string[]) =>
  spawnSync(helm, ['template', 'pay', CHART, '--namespace', 'payments', ...args], { encoding: 'utf8' });
function render(...args: string[]): Manifest[] {
  const out = template(...args);
  if (out.status !== 0) throw new Error(out.stderr);
  return parseAllDocuments(out.stdout)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}
const readme = () => readFileSync(DEPLOY_README, 'utf8');
const component = (m: Manifest) => m.metadata.labels?.['app.kubernetes.io/component'];

/** Every configuration the docs and CI use, as helm arguments. */
function documentedConfigurations(): [string, string[]][] {
  const install = readme()
    .replace(/\\\n\s*/g, ' ')
    .match(/^helm upgrade --install .*$/m)![0];
  const installSets = [...install.matchAll(/--set\s+(\S+)/g)].flatMap((m) => [
    '--set',
    m[1]!.replace('$TAG', '0.1.0').replace('$STATEMENT_KEY', STATEMENT_KEY_EXAMPLE),
  ]);
  // The README's values examples: its ```yaml blocks (each a values file).
  const examples = [...readme().matchAll(/```yaml\n([\s\S]*?)```/g)].map((block, i): [string, string[]] => {
    const file = join(work, `readme-example-${i}.yaml`);
    writeFileSync(file, block[1]!);
    return [`deploy/README.md values example ${i + 1}`, [...REQUIRED, '-f', file]];
  });
  expect(examples.length).toBeGreaterThan(0);
  const everything = join(work, 'every-credential-option.json');
  writeFileSync(
    everything,
    JSON.stringify({
      nats: { auth: { type: 'password', secretName: 'hc-nats' }, tls: { caSecretName: 'nats-ca', clientCertSecretName: 'nats-client' } },
      telemetry: { otlpHeaders: { secretName: 'hc-otlp' } },
      extraEnv: [{ name: 'VENDOR_API_TOKEN', valueFrom: { secretKeyRef: { name: 'vendor', key: 'token' } } }],
    }),
  );
  return [
    ['the defaults', REQUIRED],
    ['the CI values', [...REQUIRED, '-f', TEST_VALUES]],
    ['the chart:run values', ['--set', 'publicBaseUrl=http://127.0.0.1:8480', '-f', CHART_RUN_VALUES]],
    ["deploy/README.md's install command", installSets],
    ...examples,
    ['every credential option on', [...REQUIRED, '-f', TEST_VALUES, '-f', everything]],
  ];
}

describe('every documented configuration', () => {
  it('renders no Secret and no ConfigMap holding a credential-like key or a URL with a login', () => {
    const found: string[] = [];
    for (const [what, args] of documentedConfigurations()) {
      const all = render(...args);
      for (const m of all.filter((x) => x.kind === 'Secret')) found.push(`${what}: Secret ${m.metadata.name}`);
      for (const m of all.filter((x) => x.kind === 'ConfigMap')) {
        for (const [key, value] of Object.entries(m.data ?? {})) {
          // NATS_URL is the chart's own (natsUrl, whose login the schema refuses); its value is checked below.
          if (CREDENTIAL_NAME.test(key) && key !== 'NATS_URL') found.push(`${what}: ConfigMap ${m.metadata.name} key ${key}`);
          if (URL_WITH_LOGIN.test(value)) found.push(`${what}: ConfigMap ${m.metadata.name} ${key}=${value}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('gives pods credential variables only through secretKeyRef, or as paths of files mounted from Secrets', () => {
    const found: string[] = [];
    for (const [what, args] of documentedConfigurations()) {
      for (const m of render(...args)) {
        for (const container of m.spec?.template?.spec.containers ?? []) {
          for (const env of (container.env ?? []).filter((e) => CREDENTIAL_NAME.test(e.name))) {
            const fromSecret = env.valueFrom?.secretKeyRef !== undefined;
            const mountedFile = /_FILE$/.test(env.name) && env.value?.startsWith('/etc/hc/nats/');
            if (!fromSecret && !mountedFile) found.push(`${what}: ${m.metadata.name}/${container.name} ${env.name}`);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });
});

describe('the schema refuses a credential written into values, saying where it goes', () => {
  // helm 3.17's wording (`field: field does not match: "…"`) and 3.18's (`at '/a/b': value must be "…"`).
  const SECRET_HINT =
    /(does not match: |value must be )"refused in env, which goes into a ConfigMap: a credential comes from an existing Secret/;
  const LOGIN_HINT = /(does not match: |value must be )"a URL with a login \(scheme:\/\/user:pass@host\) is refused here/;
  const names = (stderr: string, field: string) => new RegExp(field.split('.').join('[./]')).test(stderr);
  const refusals: [string, string, RegExp][] = [
    [
      'grpcServices.checkout.env.CHECKOUT_DATABASE_URL=postgresql://u:p@db/x',
      'grpcServices.checkout.env.CHECKOUT_DATABASE_URL',
      SECRET_HINT,
    ],
    ['gateway.env.NATS_URL=nats://nats:4222', 'gateway.env.NATS_URL', SECRET_HINT],
    ['grpcServices.notifications.env.SMTP_USER=mailer', 'grpcServices.notifications.env.SMTP_USER', SECRET_HINT],
    ['dashboard.env.OTEL_EXPORTER_OTLP_HEADERS=api-key=abc', 'dashboard.env.OTEL_EXPORTER_OTLP_HEADERS', SECRET_HINT],
    ['pages.env.OTEL_EXPORTER_OTLP_TRACES_HEADERS=api-key=abc', 'pages.env.OTEL_EXPORTER_OTLP_TRACES_HEADERS', SECRET_HINT],
    ['grpcServices.webhooks.env.SIGNING_SECRET=x', 'grpcServices.webhooks.env.SIGNING_SECRET', SECRET_HINT],
    ['gateway.env.VENDOR_API_TOKEN=x', 'gateway.env.VENDOR_API_TOKEN', SECRET_HINT],
    ['grpcServices.newservice.env.DB_PASSWORD=x', 'grpcServices.newservice.env.DB_PASSWORD', SECRET_HINT],
    [
      'grpcServices.settlement.env.PROCESSOR_URL=https://user:pass@processor.example',
      'grpcServices.settlement.env.PROCESSOR_URL',
      LOGIN_HINT,
    ],
    ['gateway.extraEnv[0].name=NATS_PASSWORD,gateway.extraEnv[0].value=x', 'gateway.extraEnv.0.value', SECRET_HINT],
    ['extraEnv[0].name=REPORTS_URL,extraEnv[0].value=postgresql://u:p@db/reports', 'extraEnv.0.value', LOGIN_HINT],
    ['natsUrl=nats://svc:pass@nats:4222', 'natsUrl', /natsUrl must not carry a login \(it sits in a ConfigMap\): use nats.auth/],
  ];

  it.each(refusals)('--set %s', (set, field, hint) => {
    const refused = template('-f', TEST_VALUES, '--set', set);
    expect({ status: refused.status, field: names(refused.stderr, field), hint: hint.test(refused.stderr) }).toEqual({
      status: 1,
      field: true,
      hint: true,
    });
  });

  it('takes the same variables from a Secret (extraEnv valueFrom), and ordinary settings and URLs as values', () => {
    const accepted = template(
      ...REQUIRED,
      '--set',
      'gateway.extraEnv[0].name=NATS_PASSWORD,gateway.extraEnv[0].valueFrom.secretKeyRef.name=x,gateway.extraEnv[0].valueFrom.secretKeyRef.key=y',
      '--set',
      'grpcServices.settlement.env.PROCESSOR_URL=https://processor.example/v1',
      '--set',
      'grpcServices.settlement.env.CHAIN_CHECK_INTERVAL_MS=5000',
    );
    expect({ status: accepted.status, stderr: accepted.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('needs the Secret of a NATS login, and at most one source of the NATS CA', () => {
    expect(template(...REQUIRED, '--set', 'nats.auth.type=creds').stderr).toContain('nats.auth');
    const both = template(...REQUIRED, '--set', 'nats.tls.caSecretName=a', '--set', 'nats.tls.caConfigMapName=b');
    expect({ status: both.status, stderr: both.stderr }).toEqual({
      status: 1,
      stderr: expect.stringContaining('set caSecretName or caConfigMapName, not both'),
    });
  });
});

describe('NATS credentials and TLS', () => {
  const podOf = (all: Manifest[], name: string) => all.find((m) => m.kind === 'Deployment' && component(m) === name)!.spec!.template!.spec;
  const envOf = (all: Manifest[], name: string) =>
    Object.fromEntries((podOf(all, name).containers[0]!.env ?? []).map((e) => [e.name, e.valueFrom ?? e.value]));

  it('mount a creds file and the CA from their Secret and ConfigMap into the gRPC services only, named by NATS_* paths', () => {
    const all = render(
      ...REQUIRED,
      '--set',
      'nats.auth.type=creds',
      '--set',
      'nats.auth.secretName=hc-nats',
      '--set',
      'nats.tls.caConfigMapName=company-ca',
      '--set',
      'natsUrl=tls://nats.messaging.svc:4222',
    );
    for (const name of ['checkout', 'settlement', 'customers', 'webhooks', 'notifications']) {
      expect(envOf(all, name)).toMatchObject({ NATS_CREDS_FILE: '/etc/hc/nats/auth/nats.creds', NATS_CA_FILE: '/etc/hc/nats/ca/ca.crt' });
      const pod = podOf(all, name);
      expect(pod.volumes).toEqual(
        expect.arrayContaining([
          { name: 'nats-auth', secret: { secretName: 'hc-nats', defaultMode: 0o440, items: [{ key: 'nats.creds', path: 'nats.creds' }] } },
          { name: 'nats-ca', configMap: { name: 'company-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        ]),
      );
      expect(pod.containers[0]!.volumeMounts).toEqual(
        expect.arrayContaining([
          { name: 'nats-auth', mountPath: '/etc/hc/nats/auth', readOnly: true },
          { name: 'nats-ca', mountPath: '/etc/hc/nats/ca', readOnly: true },
        ]),
      );
    }
    for (const name of ['gateway', 'pages', 'dashboard']) {
      expect(Object.keys(envOf(all, name)).filter((k) => k.startsWith('NATS_'))).toEqual([]);
      expect(podOf(all, name).volumes?.map((v) => v.name)).toEqual(['tmp']);
    }
    for (const job of all.filter((m) => m.kind === 'Job')) expect(job.spec!.template!.spec.volumes?.map((v) => v.name)).toEqual(['tmp']);
  });

  it('take a user and password through secretKeyRef, and a client certificate for mutual TLS', () => {
    const all = render(
      ...REQUIRED,
      '--set',
      'nats.auth.type=password',
      '--set',
      'nats.auth.secretName=hc-nats',
      '--set',
      'nats.tls.clientCertSecretName=nats-client',
    );
    expect(envOf(all, 'webhooks')).toMatchObject({
      NATS_USER: { secretKeyRef: { name: 'hc-nats', key: 'user' } },
      NATS_PASSWORD: { secretKeyRef: { name: 'hc-nats', key: 'password' } },
      NATS_TLS_CERT_FILE: '/etc/hc/nats/client/tls.crt',
      NATS_TLS_KEY_FILE: '/etc/hc/nats/client/tls.key',
    });
    expect(podOf(all, 'webhooks').volumes?.map((v) => v.name)).toEqual(['tmp', 'nats-client-cert']);
  });

  it('give every service its OTLP headers from their Secret', () => {
    const all = render('-f', TEST_VALUES, '--set', 'telemetry.otlpHeaders.secretName=hc-otlp');
    for (const deployment of all.filter((m) => m.kind === 'Deployment'))
      expect(envOf(all, component(deployment)!)['OTEL_EXPORTER_OTLP_HEADERS']).toEqual({
        secretKeyRef: { name: 'hc-otlp', key: 'headers' },
      });
  });
});

describe("deploy/README.md's values examples", () => {
  it('are values of the chart (parse as YAML maps)', () => {
    for (const block of readme().matchAll(/```yaml\n([\s\S]*?)```/g)) expect(typeof parse(block[1]!)).toBe('object');
  });
});
