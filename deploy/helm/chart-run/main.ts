/**
 * pnpm chart:run: the Helm chart's workloads on one machine, as containers (deploy/helm/chart-run/README.md,
 * docs/adr/0044). Renders deploy/helm/hosted-checkout with chart-run/values.yaml through a real helm,
 * then runs what it rendered from the images `pnpm images` built: PostgreSQL and NATS containers, the
 * migration Jobs (each must exit 0), every Deployment's pod spec (command, args, env, envFrom, ports,
 * security context, readiness probes) and the Ingress, on a network of their own. Ports are published on
 * 127.0.0.1 only. Prints GATEWAY_URL, TEST_SECRET_KEY and DEMO_ACCOUNT_ID like ./scripts/start, and exits
 * leaving it running. `pnpm chart:run --down` removes every container and the network it made.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@hc/test-kit';
import { readRendered } from './manifests.ts';
import type { Rendered } from './manifests.ts';
import { LABEL, NETWORK, STATE_DIR, containerName, engineClient, httpReady, namesResolve, run, tryRun } from './engine.ts';
import type { PodContext } from './pods.ts';
import { startWorkloads, until } from './workloads.ts';
import { Endpoints, ENDPOINTS_FILE, ENDPOINTS_MOUNT, addressOf } from './endpoints.ts';
import { runningReplicas, upgrade } from './upgrade.ts';
import { runTestHooks } from './hooks.ts';
import { makeNatsLogin, type NatsLogin } from './nats-tls.ts';
import { NATS_NODES, NATS_START_RETRIES, natsNodeReady, natsNodeRunArgs, writeNatsConfigs } from './nats-cluster.ts';

const root = join(import.meta.dirname, '../../..');
const RELEASE = 'hc';
const POSTGRES = containerName('postgres');
const INGRESS = containerName('ingress');
const log = (line: string): void => void process.stderr.write(`chart:run: ${line}\n`);

/** Shell lines of scripts/*.sh that print `export NAME=value`, applied to this process. */
function applyExports(script: string): void {
  const out = execFileSync('bash', [join(root, 'scripts', script)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  for (const match of out.matchAll(/^export ([A-Z_]+)=(.*)$/gm)) process.env[match[1]!] ??= match[2]!;
}

function down(client: string): void {
  const list = (): string[] =>
    tryRun(client, ['ps', '-aq', '--filter', `label=${LABEL}`])
      ?.split('\n')
      .filter(Boolean) ?? [];
  const ids = list();
  // podman 4.3 sometimes refuses one of many (a container it is stopping just stopped: "container
  // state improper"); each is then removed on its own, and whatever is still there fails the run.
  if (ids.length > 0 && tryRun(client, ['rm', '-f', '-t', '5', ...ids]) === undefined) {
    for (const id of ids) tryRun(client, ['rm', '-f', '-t', '0', id]);
    if (list().length > 0) run(client, ['rm', '-f', '-t', '0', ...list()]);
  }
  if (tryRun(client, ['network', 'exists', NETWORK]) !== undefined) tryRun(client, ['network', 'rm', '-f', NETWORK]);
  rmSync(join(root, STATE_DIR), { recursive: true, force: true });
  log(`removed ${ids.length} container(s) and the network ${NETWORK}`);
}

/** The Secrets a cluster would hold (the chart reads them, never makes them), made for this run. */
function makeSecrets(
  secretsRead: Map<string, Set<string>>,
  postgresPassword: string,
  nats: NatsLogin,
): Map<string, Record<string, string>> {
  const secrets = new Map<string, Record<string, string>>();
  for (const [name, keys] of secretsRead) {
    const data: Record<string, string> = {};
    for (const key of keys) {
      const database = name.match(/^hc-(.+)-database$/);
      if (database) data[key] = `postgresql://postgres:${postgresPassword}@postgres:5432/hc_${database[1]!.replace(/-/g, '_')}`;
      // NATS's login and the CA of its certificate (values.yaml: nats.auth, nats.tls; nats-tls.ts).
      else if (name.endsWith('-nats')) data[key] = key === 'user' ? nats.user : nats.password;
      else if (name.endsWith('-nats-ca')) data[key] = nats.ca;
      else if (name.endsWith('-encryption-keys')) data[key] = `chartrun1:${randomBytes(32).toString('base64')}`;
      else if (name.endsWith('-notices')) data[key] = `whsec_${randomBytes(24).toString('base64')}`;
      // Statements signed with a key of this run (its public key is not published: statementPublicKeyset is empty here).
      else if (name === 'hc-statement-signing-key')
        data[key] = `chartrun1:${generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`;
      // The SMTP relay's credentials: the single-machine values point notifications at no relay (nothing
      // here turns receipts on), so any pair does.
      else if (name.endsWith('-smtp')) data[key] = key === 'user' ? 'chart-run' : randomBytes(16).toString('hex');
      else throw new Error(`chart:run does not know how to make Secret ${name} (key ${key}); add it to deploy/helm/chart-run/main.ts`);
    }
    secrets.set(name, data);
  }
  return secrets;
}

/** The chart as helm renders it with the single-machine values (the one source of truth; ADR 0044). */
function render(publicBaseUrl: string, extraSets: string[] = []): Rendered {
  const helm = execFileSync('bash', [join(root, 'scripts/ensure-helm.sh')], { encoding: 'utf8' }).trim();
  const chart = join(root, 'deploy/helm/hosted-checkout');
  const values = join(import.meta.dirname, 'values.yaml');
  const sets = [`publicBaseUrl=${publicBaseUrl}`, ...extraSets].flatMap((set) => ['--set', set]);
  const text = execFileSync(helm, ['template', RELEASE, chart, '-f', values, ...sets], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return readRendered(text);
}

/**
 * PostgreSQL and NATS JetStream, what the cluster provides, as containers named as the values expect:
 * NATS as a cluster of three nodes (nats-cluster.ts, docs/adr/0098).
 */
async function startInfrastructure(client: string, postgresPassword: string, nats: NatsLogin): Promise<void> {
  const base = ['run', '-d', '--label', `${LABEL}=1`, '--network', NETWORK];
  run(client, [
    ...base,
    ...['--name', POSTGRES, '--network-alias', 'postgres', '-p', `127.0.0.1:${await freePort()}:5432`],
    ...['-e', `POSTGRES_PASSWORD=${postgresPassword}`, process.env['TEST_POSTGRES_IMAGE']!, 'postgres', '-c', 'max_connections=300'],
  ]);
  const configs = writeNatsConfigs(state());
  for (const node of NATS_NODES) {
    const ports = { client: await freePort(), monitor: await freePort() };
    run(client, [...base, ...natsNodeRunArgs(node, containerName(node), nats, configs, process.env['TEST_NATS_IMAGE']!, ports)]);
  }
  await until(
    'PostgreSQL',
    async () => tryRun(client, ['exec', POSTGRES, 'pg_isready', '-h', '127.0.0.1', '-U', 'postgres']) !== undefined,
  );
  // /healthz answers 200 once the node's JetStream is up and its cluster has a meta leader.
  for (const node of NATS_NODES) {
    const restarts = { left: NATS_START_RETRIES };
    await until(`NATS ${node}`, () => natsNodeReady(client, containerName(node), restarts));
  }
}

/** The Ingress: a small proxy container (chart-run/ingress.ts) on the network, the one published entry. */
async function startIngress(client: string, rendered: Rendered, port: number, endpoints: Endpoints): Promise<void> {
  run(client, [
    ...['run', '-d', '--label', `${LABEL}=1`, '--network', NETWORK, '--name', INGRESS],
    ...['-p', `127.0.0.1:${port}:8080`, '--read-only', '--user', '1000:1000'],
    ...['-v', `${endpoints.dir}:${ENDPOINTS_MOUNT}:ro`, '-e', `ENDPOINTS_FILE=${ENDPOINTS_MOUNT}/${ENDPOINTS_FILE}`],
    ...['-v', `${join(import.meta.dirname, 'ingress.ts')}:/ingress/ingress.ts:ro`, '-e', `ROUTES=${JSON.stringify(rendered.ingress)}`],
    ...[process.env['NODE_IMAGE']!, 'node', '/ingress/ingress.ts'],
  ]);
  await until('ingress', () => httpReady(port, '/healthz'));
}

/** The demo merchant and its Test key, made with the operator CLI inside the gateway pod (as deploy/README.md does). */
async function demoMerchant(client: string, gateway: string): Promise<{ account: string; key: string }> {
  // The Ingress container just joined the network: until podman's DNS has taken it in, lookups in the
  // gateway pod may fail or hang, and the CLI refuses to act without its audit line (engine.ts).
  await until('DNS on the network', async () => namesResolve(client, gateway, [INGRESS]));
  const operator = (...args: string[]): Record<string, unknown> =>
    JSON.parse(run(client, ['exec', gateway, 'node', 'tools/operator/src/operator.ts', ...args, '--json'])) as Record<string, unknown>;
  const account = operator('accounts', 'create', '--name', 'Demo Shop', '--payout-wallet', '0x1111111111111111111111111111111111111111');
  const key = operator('keys', 'create', String(account['id']), '--mode', 'test', '--label', 'chart:run (demo)');
  return { account: String(account['id']), key: String(key['secret']) };
}

function state(): string {
  const dir = join(root, STATE_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * CHART_RUN_REGISTRY (e.g. 127.0.0.1:5000/hosted-checkout, where `pnpm images --push` put them): the
 * images come from that registry, pulled as a kubelet would, instead of the engine's local store.
 */
function registrySets(client: string): { sets: string[]; pull: (image: string) => void } {
  const registry = process.env['CHART_RUN_REGISTRY'];
  // CHART_RUN_IMAGES: another prefix in the local store (e.g. localhost/hosted-checkout-previous, ADR 0094).
  const images = process.env['CHART_RUN_IMAGES'];
  if (!registry) return { sets: images ? [`image.registry=${images}`] : [], pull: () => undefined };
  const local = /^(127\.0\.0\.1|localhost)[:/]/.test(registry) && client === 'podman' ? ['--tls-verify=false'] : [];
  return {
    sets: [`image.registry=${registry}`, 'image.pullPolicy=Always'],
    pull: (image) => void run(client, ['pull', '-q', ...local, image]),
  };
}

async function up(client: string, port: number): Promise<void> {
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  const registry = registrySets(client);
  const rendered = render(publicBaseUrl, registry.sets);
  log(
    `rendered ${rendered.jobs.length} Job(s), ${rendered.deployments.length} Deployment(s), ${rendered.tests.length} test Pod(s), ${rendered.ingress.length} Ingress path(s)`,
  );
  const pods = [...rendered.jobs, ...rendered.deployments, ...rendered.tests];
  for (const image of new Set(pods.flatMap((w) => w.pod.containers.map((c) => c.image)))) {
    registry.pull(image);
    if (tryRun(client, ['image', 'exists', image]) === undefined && tryRun(client, ['image', 'inspect', image]) === undefined) {
      throw new Error(`image ${image} is missing: run pnpm images first`);
    }
  }
  const postgresPassword = randomBytes(12).toString('hex');
  const nats = makeNatsLogin(state());
  const ctx: PodContext = {
    network: NETWORK,
    state: state(),
    configMaps: rendered.configMaps,
    secrets: makeSecrets(rendered.secretsRead, postgresPassword, nats),
  };
  // Kept for `--upgrade`, which runs the new pods with the same Secrets, as a cluster keeps them.
  writeFileSync(join(state(), 'secrets.json'), JSON.stringify([...ctx.secrets]), { mode: 0o600 });
  run(client, ['network', 'create', '--label', `${LABEL}=1`, NETWORK]);
  await startInfrastructure(client, postgresPassword, nats);
  const started = await startWorkloads(client, ctx, rendered, log);
  const ready = started.map((r) => ({ deployment: r.deployment, address: addressOf(client, NETWORK, r.name) }));
  await startIngress(client, rendered, port, new Endpoints(state(), Endpoints.servicesOf(rendered.ingress), ready));
  const gateway = started.find((r) => r.deployment.labels['app.kubernetes.io/component'] === 'gateway')?.name;
  if (!gateway) throw new Error('no gateway Deployment rendered');
  const demo = await demoMerchant(client, gateway);
  // `helm test`: the chart's test-hook Pods, with the demo merchant's Test key; a failed one fails the run.
  await runTestHooks(client, ctx, rendered.tests, demo.key, log);
  process.stdout.write(`GATEWAY_URL=${publicBaseUrl}\nTEST_SECRET_KEY=${demo.key}\nDEMO_ACCOUNT_ID=${demo.account}\n`);
  log(`running; pnpm chart:run --down removes it`);
}

/**
 * `pnpm chart:run --test`: `helm test` again against the platform chart:run left running, with the Test
 * key in CHART_RUN_TEST_API_KEY (the TEST_SECRET_KEY it printed). The test pods read no other Secret.
 */
async function testAgain(client: string, port: number): Promise<void> {
  const apiKey = process.env['CHART_RUN_TEST_API_KEY'];
  if (!apiKey) throw new Error('--test needs CHART_RUN_TEST_API_KEY (the TEST_SECRET_KEY chart:run printed)');
  const rendered = render(`http://127.0.0.1:${port}`, registrySets(client).sets);
  await runTestHooks(
    client,
    { network: NETWORK, state: state(), configMaps: rendered.configMaps, secrets: new Map() },
    rendered.tests,
    apiKey,
    log,
  );
}

/**
 * `pnpm chart:run --upgrade`: the platform chart:run left running, upgraded in place to what the chart
 * renders now (upgrade.ts): migrations first, then a rolling update of every Deployment.
 */
async function upgradeRunning(client: string, port: number): Promise<void> {
  const rendered = render(`http://127.0.0.1:${port}`, registrySets(client).sets);
  const secrets = new Map(JSON.parse(readFileSync(join(state(), 'secrets.json'), 'utf8')) as Array<[string, Record<string, string>]>);
  const ctx: PodContext = { network: NETWORK, state: state(), configMaps: rendered.configMaps, secrets };
  const ready = rendered.deployments.flatMap((d) =>
    runningReplicas(client, d.name).map((name) => ({ deployment: d, address: addressOf(client, NETWORK, name) })),
  );
  await upgrade(client, ctx, rendered, new Endpoints(state(), Endpoints.servicesOf(rendered.ingress), ready), log);
  log('upgraded');
}

async function main(): Promise<void> {
  applyExports('ensure-container-engine.sh');
  const client = engineClient();
  if (process.argv.includes('--down')) return down(client);
  applyExports('container-images-env.sh');
  const port = Number(process.env['CHART_RUN_PORT'] ?? 8480);
  if (process.argv.includes('--test')) return testAgain(client, port);
  if (process.argv.includes('--upgrade')) return upgradeRunning(client, port);
  down(client);
  await up(client, port);
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  log('what it started is left for inspection (podman ps -a --filter label=' + LABEL + '); pnpm chart:run --down removes it');
  process.exitCode = 1;
});
