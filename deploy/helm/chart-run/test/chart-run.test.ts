// Risk covered: a chart whose workloads have never run — images that do not start, a migration Job
// that fails, a pod spec (command, env, envFrom, Secrets, ports, probes) that does not work as rendered,
// services that cannot find each other by their Service names, an Ingress that does not route the
// hosted pages and the dashboard. Runs `pnpm chart:run` (the images must exist: `pnpm images`) and
// takes one Test payment through create → start → simulate paid → signed webhook received, then opens
// the hosted page and signs in to the dashboard through the Ingress in a real browser. The chart's
// `helm test` pods ran inside chart:run (it fails otherwise); `chart:run --test` runs them again, and
// fails, naming the pod and what it saw, when the create check is given a key the gateway refuses.
// The images come from a real registry on 127.0.0.1 (Debian's docker-registry): `pnpm images --push
// --no-build` puts what CI built there and prints each digest, and chart:run pulls them from it.
// NATS is a JetStream cluster of three containers (docs/adr/0098): every stream and consumer must be on
// three nodes, and a node stopped under load and started again must lose no payment and no webhook.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchChromium } from '@hc/test-kit/browser';
import { EPHEMERAL_PORTS_FROM, eventually, freePort } from '@hc/test-kit';
import { LABEL, NETWORK, containerName, namesResolve } from '../engine.ts';
import { startRegistry, type LocalRegistry } from '../registry.ts';
import { countPerReplica, describeSpread, loadWithinLimits, served } from './spread.ts';
import { describeView, notFullyReplicated, pollCluster, whole, type ClusterView } from './jetstream.ts';
import { startReceiverContainer } from './receiver-container.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const RECEIVER = containerName('test-receiver');
const client = execFileSync('sh', ['-c', 'command -v podman || command -v docker'], { encoding: 'utf8' }).trim();
const run = (...args: string[]): string => execFileSync(client, args, { encoding: 'utf8', input: '' }).trim();

interface Platform {
  url: string;
  key: string;
  account: string;
}
let platform: Platform;
let registry: LocalRegistry;
let pushed: string[];
let chartRunErr: string;
let receiverPort: number;
let endpointSecret: string;
let gatewayContainer: string;

/** The operator CLI inside a gateway replica; its calls get 20 s (a loaded machine, not what is tested). */
function operator(...args: string[]): Record<string, unknown> {
  const command = ['exec', '-e', 'GRPC_TIMEOUT_MS=20000', gatewayContainer, 'node', 'tools/operator/src/operator.ts', ...args, '--json'];
  return JSON.parse(run(...command)) as Record<string, unknown>;
}

async function api(
  method: string,
  path: string,
  body?: unknown,
  key = platform.key,
): Promise<{ status: number; json: Record<string, unknown>; upstream: string }> {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const upstream = response.headers.get('x-chart-run-upstream') ?? '';
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, upstream };
}

/** The JetStream cluster as its nodes' /jsz show it, once `done` holds or after 60 s. */
const jetstream = (done: (view: ClusterView) => boolean): Promise<ClusterView> => pollCluster(client, containerName, done);

async function received(): Promise<Array<{ headers: Record<string, string>; body: string }>> {
  return (await (await fetch(`http://127.0.0.1:${receiverPort}/received`)).json()) as Array<{
    headers: Record<string, string>;
    body: string;
  }>;
}

beforeAll(async () => {
  registry = await startRegistry(ROOT);
  const push = await promisify(execFile)(
    'bash',
    [join(ROOT, 'scripts/images.sh'), '--push', `${registry.address}/hosted-checkout`, '--no-build'],
    {
      cwd: ROOT,
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  pushed = push.stdout.split('\n').filter((line) => line.includes('@sha256:'));
  const port = await freePort();
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(ROOT, 'deploy/helm/chart-run/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, CHART_RUN_PORT: String(port), CHART_RUN_REGISTRY: `${registry.address}/hosted-checkout` },
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const printed = Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  chartRunErr = stderr;
  platform = { url: printed['GATEWAY_URL']!, key: printed['TEST_SECRET_KEY']!, account: printed['DEMO_ACCOUNT_ID']! };
  // One of the gateway's replicas (the CLI acts on the shared databases, whichever it runs in).
  gatewayContainer = run('ps', '--filter', `label=${LABEL}.workload=hc-hosted-checkout-gateway`, '--format', '{{.Names}}').split('\n')[0]!;

  // The merchant's receiver, a container on the runner's network like any endpoint the service calls.
  const nodeImage = run('inspect', '--format', '{{.ImageName}}', containerName('ingress'));
  receiverPort = await startReceiverContainer(run, RECEIVER, nodeImage);
  // Podman's DNS restarts to take the receiver in; meanwhile the gateway pod's lookups of the dashboard
  // fail or hang and the CLI below is refused ("nothing was done"). Wait until the receiver's name
  // resolves there, and the Services the pod calls with it (deploy/helm/chart-run/engine.ts).
  const settled = await eventually(async () => namesResolve(client, gatewayContainer, [RECEIVER]), Boolean, 60_000);
  if (!settled) throw new Error(`DNS on the ${NETWORK} network: ${RECEIVER} does not resolve in ${gatewayContainer}`);
  const endpoint = operator('webhooks', 'endpoints', 'add', platform.account, '--mode', 'test', '--url', `http://${RECEIVER}:8080/hooks`);
  endpointSecret = String(endpoint['secret']);
}, 660_000);

afterAll(async () => {
  await registry?.stop();
  if (process.env['CHART_RUN_KEEP'] === '1') return;
  execFileSync(process.execPath, [join(ROOT, 'deploy/helm/chart-run/main.ts'), '--down'], { cwd: ROOT, stdio: 'inherit' });
});

describe('pnpm chart:run', () => {
  it('prints the three lines ./scripts/start prints, for a gateway on 127.0.0.1', () => {
    expect(platform.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(platform.key).toMatch(/^sk_test_/);
    expect(platform.account).toMatch(/^acct_/);
  });

  it("ran the chart's helm test pods: every service ready, then a Test create through the gateway", () => {
    expect(chartRunErr).toMatch(/helm test: hc-hosted-checkout-test-ready passed/);
    expect(chartRunErr).toMatch(/ready: checkout \(hc-hosted-checkout-checkout\.default\.svc:50051\)/);
    expect(chartRunErr).toMatch(/ready: gateway \(http:\/\/hc-hosted-checkout-gateway\.default\.svc:8080\/readyz\)/);
    expect(chartRunErr).not.toMatch(/NOT READY/);
    // The test pod asks again while a just-started pod cannot reach the gateway yet (helm-test.ts,
    // untilAnswered: "no answer yet …; asking again"); what must follow is the session read back.
    expect(chartRunErr).toMatch(
      /helm test: hc-hosted-checkout-test-create passed\n(?:\s+no answer yet [^\n]*; asking again\n)*\s+created and read back Test checkout session pay_/,
    );
  });

  it("every Deployment's container is healthy by its image's HEALTHCHECK (the chart's readiness check, deploy/docker)", () => {
    const workloads = run('ps', '--filter', `label=${LABEL}.workload`, '--format', '{{.Names}}').split('\n');
    const deployments = workloads.filter((name) => !/migrate|test-|ingress/.test(name));
    expect(deployments.length).toBeGreaterThanOrEqual(9);
    // podman runs a health check when asked (its timer needs systemd); docker on its interval.
    if (client.endsWith('podman')) for (const name of deployments) spawnSync(client, ['healthcheck', 'run', name]);
    const status = (name: string): string => run('inspect', '--format', '{{.State.Health.Status}}', name);
    expect(deployments.map((name) => [name, status(name)])).toEqual(deployments.map((name) => [name, 'healthy']));
  });

  it('chart:run --test runs the helm test pods again, and fails on a key the gateway refuses', async () => {
    const again = (key: string) =>
      spawnSync(process.execPath, [join(ROOT, 'deploy/helm/chart-run/main.ts'), '--test'], {
        cwd: ROOT,
        env: { ...process.env, CHART_RUN_PORT: new URL(platform.url).port, CHART_RUN_TEST_API_KEY: key },
        encoding: 'utf8',
        timeout: 300_000,
      });
    const passed = again(platform.key);
    expect({ status: passed.status, stderr: passed.stderr }).toEqual({ status: 0, stderr: expect.stringContaining('test-create passed') });
    const refused = again(`sk_test_${randomBytes(24).toString('hex')}`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/helm test: pod hc-hosted-checkout-test-create failed \(exit 1\)/);
    expect(refused.stderr).toMatch(/create: expected 201 with a Test session, got 401/);
  }, 300_000);

  it('pushed every image to the registry, which serves each under the digest pnpm images printed, and ran them from there', async () => {
    expect(pushed.length).toBeGreaterThanOrEqual(8);
    for (const line of pushed) {
      const [, name, tag, digest] = line.match(/^[^/]+\/(.+):([^:@]+)@(sha256:[0-9a-f]{64})$/)!;
      const manifest = await fetch(`http://${registry.address}/v2/${name}/manifests/${tag}`, {
        method: 'HEAD',
        headers: { accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' },
      });
      expect({ line, status: manifest.status, digest: manifest.headers.get('docker-content-digest') }).toEqual({
        line,
        status: 200,
        digest,
      });
    }
    expect(run('inspect', '--format', '{{.ImageName}}', gatewayContainer)).toBe(`${registry.address}/hosted-checkout/gateway:0.1.0`);
  });

  it('publishes every port on 127.0.0.1 only, at host ports below the ephemeral range (docs/adr/0110)', () => {
    const ports = run('ps', '--filter', `label=${LABEL}`, '--format', '{{.Ports}}')
      .split(/[\n,]/)
      .map((p) => p.trim())
      .filter(Boolean);
    expect(ports.length).toBeGreaterThan(5);
    for (const port of ports) expect(port).toMatch(/^127\.0\.0\.1:\d+->\d+\/tcp$/);
    for (const port of ports) expect(Number(/:(\d+)->/.exec(port)![1])).toBeLessThan(EPHEMERAL_PORTS_FROM);
  });

  it('runs NATS as a JetStream cluster of three nodes: every stream and consumer on 3, with a leader and 2 current followers', async () => {
    const view = await jetstream(whole);
    process.stderr.write(`chart:run JetStream: ${describeView(view)}\n`);
    expect({ nodes: view.nodes, size: view.clusterSize }).toEqual({ nodes: ['nats-0', 'nats-1', 'nats-2'], size: 3 });
    const streams = view.placements.filter((p) => !p.name.includes('/')).map((p) => p.name);
    expect(streams).toEqual(expect.arrayContaining(['ACCOUNTS', 'CHECKOUT', 'CUSTOMERS', 'SETTLEMENT', 'WEBHOOKS']));
    expect(view.placements.filter((p) => p.name.startsWith('CHECKOUT/')).length).toBeGreaterThanOrEqual(2);
    expect(notFullyReplicated(view)).toEqual([]);
  }, 90_000);

  it('takes a Test payment from create to paid, and the merchant receives the signed webhook', async () => {
    const reference = `CR-${randomBytes(3).toString('hex')}`;
    const created = await api('POST', '/v1/checkout_sessions', {
      amount: '19.9',
      currency: 'usd',
      description: 'Blue mug',
      customer_email: 'ann@example.com',
      reference,
    });
    expect(created.status).toBe(201);
    const id = String(created.json['id']);
    expect(created.json['url']).toBe(`${platform.url}/pay/${id}`);
    expect((await api('POST', `/v1/checkout_sessions/${id}/start`, { country: 'de' })).status).toBe(200);
    const paid = await api('POST', `/v1/payments/${id}/simulate`, { outcome: 'paid' });
    expect(paid.status).toBe(200);
    expect(paid.json['status']).toBe('paid');

    const hooks = await eventually(
      async () => (await received()).filter((h) => h.body.includes(id) && (JSON.parse(h.body) as { type: string }).type === 'payment.paid'),
      (found) => found.length > 0,
      60_000,
    );
    const hook = hooks[0]!;
    const signed = `${hook.headers['webhook-id']}.${hook.headers['webhook-timestamp']}.${hook.body}`;
    const expected = createHmac('sha256', Buffer.from(endpointSecret.replace(/^whsec_/, ''), 'base64'))
      .update(signed)
      .digest();
    const signatures = String(hook.headers['webhook-signature'])
      .split(' ')
      .map((s) => Buffer.from(s.replace(/^v1,/, ''), 'base64'));
    expect(signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected))).toBe(true);
  });

  it('spreads requests over every replica: the Ingress over the gateways, each gRPC client over the service replicas', async () => {
    // A merchant of its own, so the load has the account's rate limits to itself.
    const account = operator(
      'accounts',
      'create',
      '--name',
      'Spread Shop',
      '--payout-wallet',
      '0x2222222222222222222222222222222222222222',
    );
    const key = String(operator('keys', 'create', String(account['id']), '--mode', 'test', '--label', 'spread')['secret']);
    operator('webhooks', 'endpoints', 'add', String(account['id']), '--mode', 'test', '--url', `http://${RECEIVER}:8080/hooks`);
    const before = await countPerReplica(client, LABEL);
    const load = await loadWithinLimits((method, path, body) => api(method, path, body, key), { paid: 8, created: 24 }, 4);
    const counts = served(before, await countPerReplica(client, LABEL));
    process.stderr.write(`chart:run spread over replicas for ${load.statuses.length} API requests: ${describeSpread(counts)}\n`);
    expect(load.statuses.filter((s) => s < 200 || s > 299)).toEqual([]);
    // The Ingress: round robin over the gateway's three containers.
    expect(new Set(load.upstreams).size).toBe(3);
    const byComponent = new Map(counts.map((c) => [c.component, [...c.replicas.values()]]));
    expect(byComponent.get('gateway')).toHaveLength(3);
    // Every replica of each service the load reached served a fair share (round robin: ~1/n each).
    const reached = counts.filter((c) => [...c.replicas.values()].reduce((a, b) => a + b, 0) >= 16);
    expect(reached.map((c) => c.component)).toEqual(expect.arrayContaining(['gateway', 'checkout']));
    for (const { component, replicas } of reached) {
      const total = [...replicas.values()].reduce((a, b) => a + b, 0);
      for (const [name, n] of replicas)
        expect({ component, name, share: n / total >= 0.6 / replicas.size }).toEqual({ component, name, share: true });
    }
    // Every payment paid, and its signed payment.paid webhook delivered (webhooks at two replicas).
    const paidHooks = async (): Promise<string[]> =>
      (await received()).filter((h) => (JSON.parse(h.body) as { type: string }).type === 'payment.paid').map((h) => h.body);
    const hooks = await eventually(paidHooks, (bodies) => load.paidIds.every((id) => bodies.some((b) => b.includes(id))), 60_000);
    expect(load.paidIds.filter((id) => !hooks.some((b) => b.includes(id)))).toEqual([]);
  }, 180_000);

  it("loses no payment and no webhook while the checkout stream's leader is stopped under load, and it catches up when started", async () => {
    const account = operator('accounts', 'create', '--name', 'NATS Shop', '--payout-wallet', '0x3333333333333333333333333333333333333333');
    const key = String(operator('keys', 'create', String(account['id']), '--mode', 'test', '--label', 'nats node')['secret']);
    operator('webhooks', 'endpoints', 'add', String(account['id']), '--mode', 'test', '--url', `http://${RECEIVER}:8080/hooks`);
    const leader = (await jetstream(whole)).placements.find((p) => p.name === 'CHECKOUT')!.leader;
    const started = Date.now();
    const loading = loadWithinLimits((method, path, body) => api(method, path, body, key), { paid: 8, created: 4 }, 4);
    // A second into the load, SIGTERM (as a pod is stopped); its store stays with the container.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await promisify(execFile)(client, ['stop', '-t', '10', containerName(leader)]);
    const load = await loading;
    const paidHooks = async (): Promise<string[]> =>
      (await received()).filter((h) => (JSON.parse(h.body) as { type: string }).type === 'payment.paid').map((h) => h.body);
    const delivered = (bodies: string[]) => load.paidIds.filter((id) => bodies.some((b) => b.includes(id)));
    // With two nodes of three: each stream keeps its quorum, publishes and deliveries go on.
    const duringStop = await eventually(paidHooks, (bodies) => delivered(bodies).length === load.paidIds.length, 60_000);
    const down = await jetstream((view) => view.nodes.length === 2 && notFullyReplicated(view).every((p) => !p.includes('no leader')));
    run('start', containerName(leader));
    const back = await jetstream(whole);
    const hooks = await paidHooks();
    process.stderr.write(
      `chart:run NATS node ${leader} stopped under load: ${load.statuses.length} API answers (${load.statuses.filter((s) => s >= 300).length} not 2xx), ` +
        `${load.paidIds.length} paid, ${delivered(duringStop).length} payment.paid webhooks while down, ` +
        `${load.paidIds.filter((id) => hooks.filter((b) => b.includes(id)).length > 1).length} delivered twice; with it down: ${describeView(down)}; ` +
        `back after ${((Date.now() - started) / 1000).toFixed(1)} s: ${describeView(back)}\n`,
    );
    expect(load.statuses.filter((s) => s < 200 || s > 299)).toEqual([]);
    expect(load.paidIds.filter((id) => !duringStop.some((b) => b.includes(id)))).toEqual([]);
    expect(notFullyReplicated(down).filter((p) => p.includes('no leader'))).toEqual([]);
    expect(back.nodes).toEqual(['nats-0', 'nats-1', 'nats-2']);
    expect(notFullyReplicated(back)).toEqual([]);
    for (const id of load.paidIds) expect((await api('GET', `/v1/checkout_sessions/${id}`, undefined, key)).json['status']).toBe('paid');
  }, 240_000);

  it('serves the hosted checkout page and the dashboard through the Ingress, in a browser', async () => {
    const created = await api('POST', '/v1/checkout_sessions', {
      amount: '7.5',
      currency: 'eur',
      description: 'Tea towel',
      reference: 'CR-PAGE',
    });
    expect(created.status).toBe(201);
    const email = `owner-${randomBytes(3).toString('hex')}@shop.example`;
    const password = `chart-run-${randomBytes(8).toString('hex')}`;
    execFileSync(
      client,
      [
        'exec',
        '-i',
        gatewayContainer,
        'node',
        'tools/operator/src/operator.ts',
        'users',
        'create',
        platform.account,
        '--email',
        email,
        '--password-stdin',
      ],
      {
        input: `${password}\n`,
        encoding: 'utf8',
      },
    );

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const pay = await page.goto(String(created.json['url']));
      expect(pay?.status()).toBe(200);
      await expect(page.getByText('Tea towel').first().isVisible()).resolves.toBe(true);

      await page.goto(`${platform.url}/dashboard/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/test\//);
      await page.goto(`${platform.url}/dashboard/test/payments`);
      await expect(page.getByRole('heading', { name: 'Payments' }).isVisible()).resolves.toBe(true);
      await expect(page.getByText('CR-PAGE').first().isVisible()).resolves.toBe(true);
    } finally {
      await browser.close();
    }
  });
});
