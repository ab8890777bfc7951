// Risk covered: a values key the chart does not know — a typo (`gateway.replcas`), a key of another
// chart (`replicaCount`, `serviceAccount.create`, a top-level `ingress`) — rendered with exit 0 and was
// silently ignored, so a platform team believed it had set what it had not (issue 45, item 2); and a
// schema that drifts from values.yaml (a key without a description or a type, a block left out), or a
// documented example that the strict schema refuses. Rendered by a real helm (scripts/ensure-helm.sh).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';

const CHART = fileURLToPath(new URL('../hosted-checkout', import.meta.url));
const SCHEMA = fileURLToPath(new URL('../hosted-checkout/values.schema.json', import.meta.url));
const TEST_VALUES = fileURLToPath(new URL('../hosted-checkout/ci/test-values.yaml', import.meta.url));
const CHART_RUN_VALUES = fileURLToPath(new URL('../chart-run/values.yaml', import.meta.url));
const DEPLOY_README = fileURLToPath(new URL('../../README.md', import.meta.url));
const ENSURE_HELM = fileURLToPath(new URL('../../../scripts/ensure-helm.sh', import.meta.url));
const REQUIRED = ['--set', 'publicBaseUrl=https://pay.example.test', '--set', 'natsUrl=nats://nats:4222'];

let helm: string;
beforeAll(() => {
  helm = execFileSync('bash', [ENSURE_HELM], { encoding: 'utf8' }).trim();
}, 180_000);

const template = (...args: string[]) => spawnSync(helm, ['template', 'pay', CHART, ...REQUIRED, ...args], { encoding: 'utf8' });

describe('the values schema refuses keys the chart does not know', () => {
  // [--set, the key the message must name as not allowed]
  const unknown: [string, string][] = [
    ['gatway.replicas=3', 'gatway'],
    ['gateway.replcas=3', 'replcas'],
    ['podSecurityContex.runAsUser=1000', 'podSecurityContex'],
    ['podSecurityContext.runAsNonRot=true', 'runAsNonRot'],
    ['autoscaling.maxReplica=10', 'maxReplica'],
    ['telemetry.otlpEndpiont=http://otel:4318', 'otlpEndpiont'],
    ['ingress.enabled=true', 'ingress'],
    ['serviceAccount.create=true', 'serviceAccount'],
    ['replicaCount=3', 'replicaCount'],
    ['grpcServices.notifications.replcas=1', 'replcas'],
    ['grpcServices.settlement.autoscaling.maxReplica=4', 'maxReplica'],
    ['pages.database.secretName=hc-pages-database', 'database'],
    ['emulator.ingress.enabled=true', 'ingress'],
    ['migrations.resources.limits.memroy=1Gi', 'memroy'],
    ['networkPolicy.nats.port=4222', 'port'],
  ];

  it.each(unknown)('--set %s fails, naming %s', (set, key) => {
    const refused = template('--set', set);
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({
      status: 1,
      // helm 3.17's wording ("Additional property replcas is not allowed") and 3.18's
      // ("additional properties 'replcas' not allowed").
      stderr: expect.stringMatching(new RegExp(`additional propert(y|ies) '?${key}'? (is )?not allowed`, 'i')),
    });
  });

  it('names where the unknown key sits', () => {
    expect(template('--set', 'gateway.replcas=3').stderr).toMatch(/gateway\b.*replcas/);
    expect(template('--set', 'grpcServices.notifications.replcas=1').stderr).toMatch(/grpcServices\W+notifications\b.*replcas/);
  });
});

/** What step 1's $STATEMENT_KEY holds: a statement public key entry (keyId:base64 SPKI DER). */
const STATEMENT_KEY_EXAMPLE = 's202611:MCowBQYDK2VwAyEAjThhtnj1wpGzbx4tM1p5vyuYaPYEYS8bduyvGo8ecpU=';

describe('every documented example still renders', () => {
  it('the defaults with the two required values, the CI values and the chart:run values', () => {
    expect(template().status).toBe(0);
    for (const values of [TEST_VALUES, CHART_RUN_VALUES]) {
      const rendered = template('-f', values);
      expect({ values, status: rendered.status, stderr: rendered.stderr }).toEqual({ values, status: 0, stderr: '' });
    }
  });

  it("every --set of deploy/README.md's commands, together", () => {
    // The commands: the ```sh blocks (a ```text block may show a refusal on purpose).
    const readme = [...readFileSync(DEPLOY_README, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((block) => block[1]).join('\n');
    const sets = [...readme.matchAll(/--set\s+(?:'([^']+)'|([^\s`]+))/g)].map((m) =>
      (m[1] ?? m[2]!).replace('$TAG', '0.1.0').replace('$NEW', '0.1.1').replace('$STATEMENT_KEY', STATEMENT_KEY_EXAMPLE),
    );
    expect(sets).toEqual(expect.arrayContaining(['gateway.ingress.className=nginx', 'grpcServices.webhooks.autoscaling.maxReplicas=10']));
    const rendered = template(...sets.flatMap((set) => ['--set', set]));
    expect({ status: rendered.status, stderr: rendered.stderr }).toEqual({ status: 0, stderr: '' });
  });
});

type Schema = {
  type?: string | string[];
  description?: string;
  $ref?: string;
  not?: object;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  definitions?: Record<string, Schema>;
};

describe('the schema itself', () => {
  const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as Schema;
  const resolve = (s: Schema): Schema =>
    s.$ref ? schema.definitions![s.$ref.replace('#/definitions/', '')]! : s.allOf ? resolve(s.allOf[0]!) : s;
  // Kubernetes objects passed to the pod spec as they are (the API server checks their inside).
  // global: Helm's, shared with subcharts (this chart reads only global.imageRegistry).
  const PASSED_THROUGH =
    /^(global|(pod|container)SecurityContext\.(seLinuxOptions|windowsOptions)|affinity\.\w+)$|(^|\.)(extraVolumes\[\]|initContainers\[\]|sidecars\[\]|extraEnv\[\]\.valueFrom)$/;

  /** Every key under `path` that lacks a description or a type, and every object open to unknown keys. */
  function problems(node: Schema, path: string): string[] {
    const found: string[] = [];
    const s = resolve(node);
    if (path && !node.not) {
      // A named key needs both; an array's items and a map's values (env, labels) a type.
      const named = !/(\[\]|\.\*|>)$/.test(path);
      if (named && !node.description && !s.description) found.push(`${path}: no description`);
      if (!s.type) found.push(`${path}: no type`);
    }
    if (s.type === 'object' && !node.not) {
      if (s.additionalProperties === undefined && !PASSED_THROUGH.test(path)) found.push(`${path || '(root)'}: open to unknown keys`);
      for (const [key, child] of Object.entries(s.properties ?? {})) found.push(...problems(child, path ? `${path}.${key}` : key));
      for (const [pattern, child] of Object.entries(s.patternProperties ?? {})) found.push(...problems(child, `${path}.<${pattern}>`));
      if (typeof s.additionalProperties === 'object') found.push(...problems(s.additionalProperties, `${path}.*`));
    }
    if (s.items) found.push(...problems(s.items, `${path}[]`));
    return found;
  }

  it('describes every key with a description and a type (items and map values a type), and closes every object of the chart to unknown keys', () => {
    expect(problems(schema, '')).toEqual([]);
  });

  it('has a block for every process and for migrations, and one for every gRPC service of values.yaml', () => {
    expect(Object.keys(schema.properties!)).toEqual(
      expect.arrayContaining(['gateway', 'pages', 'dashboard', 'emulator', 'migrations', 'grpcServices']),
    );
    expect(Object.keys(schema.properties!['grpcServices']!.properties!).sort()).toEqual([
      'accounts',
      'checkout',
      'customers',
      'notifications',
      'settlement',
      'webhooks',
    ]);
  });
});
