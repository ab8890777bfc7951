// Risk covered: an upgrade that merchants notice — requests failing while pods are replaced (a pod
// killed with requests in flight, an Ingress or gRPC client still sending to a pod that is gone, a new
// pod sent traffic before it is ready), payments or webhook events lost, migrations the previous
// release's pods cannot run on. Runs chart:run with the previous release's images
// (scripts/previous-release-images.sh: hosted-checkout-previous/*), then, under a steady load of
// payments on four merchants, `chart:run --upgrade` to this tree's images (`pnpm images`): migrations
// first, every Deployment rolled with maxSurge 1 / maxUnavailable 0, readiness gated, preStop and
// SIGTERM (upgrade.ts). Afterwards every created payment must read back, every paid one's webhook must
// have arrived, and no answer may be one a client could not retry.
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, freePort } from '@hc/test-kit';
import { LABEL, containerName } from '../engine.ts';
import { RETRYABLE, describeAnswers, startSteadyLoad, type LoadAccount } from './steady-load.ts';
import { startReceiverContainer } from './receiver-container.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const MAIN = join(ROOT, 'deploy/helm/chart-run/main.ts');
const PREVIOUS = process.env['CHART_RUN_PREVIOUS_IMAGES'] ?? 'localhost/hosted-checkout-previous';
const NEXT = process.env['CHART_RUN_NEXT_IMAGES'] ?? '';
const RECEIVER = containerName('upgrade-receiver');
const client = execFileSync('sh', ['-c', 'command -v podman || command -v docker'], { encoding: 'utf8' }).trim();
const podman = (...args: string[]): string => execFileSync(client, args, { encoding: 'utf8', input: '' }).trim();
const log = (line: string): void => void process.stderr.write(`upgrade test: ${line}\n`);

let url: string;
let port: number;
let gateway: string;
let receiverPort: number;

/**
 * The operator CLI inside a gateway replica, as an operator runs it. Its calls get 20 s (the test is
 * about the upgrade, not how fast a loaded machine answers the CLI), and a refusal that says nothing
 * was done (the audit log not written in time) is asked again, as an operator would: it is safe.
 */
async function operator(...args: string[]): Promise<Record<string, unknown>> {
  const command = ['exec', '-e', 'GRPC_TIMEOUT_MS=20000', gateway, 'node', 'tools/operator/src/operator.ts', ...args, '--json'];
  for (let attempt = 1; ; attempt++) {
    try {
      return JSON.parse(podman(...command)) as Record<string, unknown>;
    } catch (error) {
      if (attempt === 3 || !String((error as Error).message).includes('nothing was done')) throw error;
      log(`operator ${args.slice(0, 2).join(' ')}: nothing was done (attempt ${attempt}), asking again in 2 s`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

beforeAll(async () => {
  port = await freePort();
  const { stdout } = await promisify(execFile)(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, CHART_RUN_PORT: String(port), CHART_RUN_IMAGES: PREVIOUS },
    timeout: 600_000,
  });
  url = stdout.match(/^GATEWAY_URL=(.*)$/m)![1]!;
  gateway = podman('ps', '--filter', `label=${LABEL}.workload=hc-hosted-checkout-gateway`, '--format', '{{.Names}}').split('\n')[0]!;
  const nodeImage = podman('inspect', '--format', '{{.ImageName}}', containerName('ingress'));
  receiverPort = await startReceiverContainer(podman, RECEIVER, nodeImage);
}, 700_000);

afterAll(() => {
  if (process.env['CHART_RUN_KEEP'] === '1') return;
  execFileSync(process.execPath, [MAIN, '--down'], { cwd: ROOT, stdio: 'inherit' });
});

it('upgrades from the previous release under a steady load of payments: 0 failed requests, 0 lost payments, 0 lost events', async () => {
  const accounts: LoadAccount[] = [];
  for (let n = 0; n < 4; n++) {
    const account = await operator('accounts', 'create', '--name', `Upgrade Shop ${n}`, '--payout-wallet', `0x${String(n + 3).repeat(40)}`);
    const id = String(account['id']);
    const key = String((await operator('keys', 'create', id, '--mode', 'test', '--label', 'upgrade load'))['secret']);
    await operator('webhooks', 'endpoints', 'add', id, '--mode', 'test', '--url', `http://${RECEIVER}:8080/hooks`);
    accounts.push({ id, key });
  }
  const previousImage = podman('inspect', '--format', '{{.ImageName}}', gateway);
  const load = startSteadyLoad(url, accounts, { paceMs: 1000, paidEvery: 5 });
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  const started = Date.now();
  const upgrade = await promisify(execFile)(process.execPath, [MAIN, '--upgrade'], {
    cwd: ROOT,
    env: { ...process.env, CHART_RUN_PORT: String(port), ...(NEXT ? { CHART_RUN_IMAGES: NEXT } : {}) },
    timeout: 1_200_000,
  });
  const upgradeSeconds = (Date.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  const result = await load.stop();

  const bodies = await eventually(
    async () => ((await (await fetch(`http://127.0.0.1:${receiverPort}/received`)).json()) as Array<{ body: string }>).map((h) => h.body),
    (received) => result.paid.every((id) => received.some((b) => b.includes(id) && b.includes('"payment.paid"'))),
    120_000,
  );
  const lostEvents = result.paid.filter((id) => !bodies.some((b) => b.includes(id) && b.includes('"payment.paid"')));
  // Every created payment is still there: in checkout's database (reading each through the API would
  // pass the accounts' rate limits; the load already read each one once while it ran).
  const stored = new Set(
    podman(
      'exec',
      containerName('postgres'),
      'psql',
      '-U',
      'postgres',
      '-d',
      'hc_checkout',
      '-Atc',
      'SELECT id FROM checkout_sessions',
    ).split('\n'),
  );
  const unreadable = result.created.filter(({ id }) => !stored.has(id)).map(({ id }) => id);
  const terminated = upgrade.stderr.match(/terminated: .*/g) ?? [];
  const exits = new Map<string, number>();
  for (const line of terminated) {
    const code = line.match(/\(exit (\d+)/)?.[1] ?? '?';
    exits.set(code, (exits.get(code) ?? 0) + 1);
  }
  log(
    `${previousImage} → ${podman('inspect', '--format', '{{.ImageName}}', podman('ps', '--filter', `label=${LABEL}.workload=hc-hosted-checkout-gateway`, '--format', '{{.Names}}').split('\n')[0]!)}` +
      ` in ${upgradeSeconds.toFixed(0)} s, ${terminated.length} replicas replaced (exit codes ${describeAnswers(exits)});` +
      ` ${result.created.length} created, ${result.paid.length} paid;` +
      ` answers ${describeAnswers(result.answers)}; ${result.failures.length} failed, ${unreadable.length} lost payments, ${lostEvents.length} lost events`,
  );
  // No answer a client could not retry (a 429 or a 500 included); the retried ones are in the line above.
  expect([...result.answers.keys()].filter((status) => !status.startsWith('2') && !RETRYABLE.has(status))).toEqual([]);
  expect(result.failures).toEqual([]);
  expect(lostEvents).toEqual([]);
  expect(unreadable).toEqual([]);
  expect(terminated.length).toBeGreaterThanOrEqual(19);
  for (const line of terminated) expect(line).toMatch(/\(exit 0,/);
}, 1_500_000);
