/** The chart rendered by a real helm (scripts/ensure-helm.sh), as the tests of this folder read it. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

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
