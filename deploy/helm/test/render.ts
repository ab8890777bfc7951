/** The chart rendered by a real helm (scripts/ensure-helm.sh), as the tests of this folder read it. */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments, stringify } from 'yaml';

export const CHART = fileURLToPath(new URL('../hosted-checkout', import.meta.url));
const ENSURE_HELM = fileURLToPath(new URL('../../../scripts/ensure-helm.sh', import.meta.url));
/** The two values without which the chart refuses to render. */
export const REQUIRED = ['--set', 'publicBaseUrl=https://pay.example.test', '--set', 'natsUrl=nats://nats:4222'];

/** The helm binary (installed into .tools/helm when none is on PATH: call it in a beforeAll with a long timeout). */
export function ensureHelm(): string {
  return execFileSync('bash', [ENSURE_HELM], { encoding: 'utf8' }).trim();
}

/** `helm template pay <chart> --namespace payments` with the required values and `args`, as objects. */
export function renderChart<M>(helm: string, ...args: string[]): M[] {
  const out = execFileSync(helm, ['template', 'pay', CHART, '--namespace', 'payments', ...REQUIRED, ...args], { encoding: 'utf8' });
  return parseAllDocuments(out)
    .map((doc) => doc.toJS() as M | null)
    .filter((m): m is M => m !== null);
}

/**
 * A values file (written into `folder`) adding a gRPC service `payouts` on port 50099 by its values block
 * alone (a copy of checkout's), and the emulator: what a new service brings.
 */
export function valuesWithNewService(folder: string): string {
  const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as { grpcServices: Record<string, Record<string, unknown>> };
  const payouts = structuredClone(values.grpcServices['checkout']!);
  Object.assign(payouts, { port: 50099, image: { repository: 'payouts', tag: '', digest: '' }, callers: ['gateway'] });
  payouts['database'] = { secretName: 'hc-payouts-database', secretKey: 'url', migrationSecretName: '' };
  const file = join(folder, 'payouts.yaml');
  writeFileSync(file, stringify({ grpcServices: { payouts }, emulator: { enabled: true, noticeUrl: 'http://x:8091/notices' } }));
  return file;
}
