/**
 * How chart:run's requests spread over the replicas (docs/replicas.md, docs/adr/0094): each replica's
 * own request counts, read from its /metrics port (telemetry.prometheus in chart-run/values.yaml) before
 * and after a load, so the difference is what the load made each replica serve.
 *   - gateway, pages, dashboard: `http_server_request_duration_count` (the Ingress's round robin);
 *   - the gRPC services: `rpc_server_call_duration_count`, health checks left out (the gRPC clients'
 *     `round_robin` over the headless Service's addresses, docs/adr/0092).
 */
import { execFileSync } from 'node:child_process';

export interface ReplicaCounts {
  /** The Deployment's component (gateway, checkout, …). */
  component: string;
  /** Container name → requests or calls it served. */
  replicas: Map<string, number>;
}

const run = (client: string, args: string[]): string => execFileSync(client, args, { encoding: 'utf8', input: '' }).trim();

/** The sum of a counter's series in a Prometheus text page, series matching `skip` left out. */
export function sumSeries(page: string, metric: string, skip?: RegExp): number {
  let total = 0;
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${metric}{`) && !line.startsWith(`${metric} `)) continue;
    if (skip?.test(line)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Every running Deployment replica of the run (label LABEL.workload), with its component and metrics port. */
function replicasOf(client: string, label: string): Array<{ name: string; component: string; port: number }> {
  const lines = run(client, ['ps', '--filter', `label=${label}.workload`, '--format', `{{.Names}} {{index .Labels "${label}.workload"}}`]);
  return lines
    .split('\n')
    .filter((line) => /-\d+ /.test(line))
    .map((line) => {
      const [name, workload] = line.split(' ') as [string, string];
      const published = run(client, ['port', name, '9464/tcp']).split('\n')[0]!;
      return { name, component: workload.replace(/^.*-hosted-checkout-/, ''), port: Number(published.split(':').pop()) };
    });
}

/** Requests (HTTP) or calls (gRPC) each replica has served so far, per component. */
export async function countPerReplica(client: string, label: string): Promise<Map<string, ReplicaCounts>> {
  const counts = new Map<string, ReplicaCounts>();
  for (const replica of replicasOf(client, label)) {
    const page = await (await fetch(`http://127.0.0.1:${replica.port}/metrics`)).text();
    const served =
      sumSeries(page, 'http_server_request_duration_count', /http_route="\/(readyz|livez|healthz)"/) +
      sumSeries(page, 'rpc_server_call_duration_count', /grpc\.health/);
    const entry = counts.get(replica.component) ?? { component: replica.component, replicas: new Map() };
    entry.replicas.set(replica.name, served);
    counts.set(replica.component, entry);
  }
  return counts;
}

/** after − before, replica by replica. */
export function served(before: Map<string, ReplicaCounts>, after: Map<string, ReplicaCounts>): ReplicaCounts[] {
  return [...after.values()].map(({ component, replicas }) => ({
    component,
    replicas: new Map([...replicas].map(([name, n]) => [name, n - (before.get(component)?.replicas.get(name) ?? 0)])),
  }));
}

/** One line: gateway 31/30/29, checkout 60/58, … */
export function describeSpread(counts: ReplicaCounts[]): string {
  return counts
    .sort((a, b) => a.component.localeCompare(b.component))
    .map(({ component, replicas }) => `${component} ${[...replicas.values()].join('/')}`)
    .join(', ');
}

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown>; upstream?: string }>;

/**
 * A load within one account's rate limits (about 120 requests and 12 starts a minute): `paid` Test
 * payments taken create → start → simulate paid → read, and `created` more only created and read,
 * `parallel` at a time. Returns the paid ones' ids, every answer's status, and the Ingress's upstream
 * (the gateway replica's address) of every answer.
 */
export async function loadWithinLimits(
  api: Api,
  counts: { paid: number; created: number },
  parallel: number,
): Promise<{ paidIds: string[]; statuses: number[]; upstreams: string[] }> {
  const paidIds: string[] = [];
  const statuses: number[] = [];
  const upstreams: string[] = [];
  const step = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const answer = await api(method, path, body);
    statuses.push(answer.status);
    if (answer.upstream) upstreams.push(answer.upstream);
    return answer.json;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < counts.paid + counts.created) {
      const n = next++;
      const session = {
        amount: '3.25',
        currency: 'eur',
        description: `Spread ${n}`,
        customer_email: `spread-${n}@example.com`,
        reference: `SPREAD-${n}`,
      };
      const id = String((await step('POST', '/v1/checkout_sessions', session))['id']);
      if (n < counts.paid) {
        paidIds.push(id);
        await step('POST', `/v1/checkout_sessions/${id}/start`, { country: 'de' });
        await step('POST', `/v1/payments/${id}/simulate`, { outcome: 'paid' });
      }
      await step('GET', `/v1/checkout_sessions/${id}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { paidIds, statuses, upstreams };
}
