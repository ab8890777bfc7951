/**
 * What chart:run's JetStream cluster holds, read from each node's monitoring port (`/jsz`, published on
 * 127.0.0.1; nats-cluster.ts): every stream and consumer with its replica count as its leader reports
 * it. A follower's own view of its peers is stale by design (it marks the others not current), so each
 * stream's and consumer's figures come from the node that leads it.
 */
import { execFileSync } from 'node:child_process';
import { NATS_MONITOR_PORT, NATS_NODES } from '../nats-cluster.ts';

interface ClusterInfo {
  leader?: string;
  replicas?: Array<{ name: string; current: boolean }>;
}
interface ConsumerDetail {
  name: string;
  cluster?: ClusterInfo;
}
interface StreamDetail {
  name: string;
  config?: { num_replicas?: number };
  cluster?: ClusterInfo;
  consumer_detail?: ConsumerDetail[];
}
interface Jsz {
  meta_cluster?: { leader?: string; cluster_size?: number };
  account_details?: Array<{ stream_detail?: StreamDetail[] }>;
}

/** A stream or consumer as its leader sees it: `stream` or `stream/consumer`, its copies, its leader, its current followers. */
export interface Placement {
  name: string;
  /** The stream's configured num_replicas (a consumer's is its stream's: it sets none). */
  replicas: number;
  leader: string;
  current: string[];
}

export interface ClusterView {
  /** Nodes answering /jsz, by name. */
  nodes: string[];
  metaLeader: string | undefined;
  clusterSize: number | undefined;
  placements: Placement[];
  /** Every stream and consumer some node knows, led by a node that answered or not. */
  seen: string[];
}

async function jsz(client: string, container: string): Promise<Jsz | undefined> {
  try {
    const out = execFileSync(client, ['port', container, `${NATS_MONITOR_PORT}/tcp`], { encoding: 'utf8' }).trim();
    const response = await fetch(`http://${out.split('\n')[0]}/jsz?accounts=true&streams=true&consumers=true&config=true`, {
      signal: AbortSignal.timeout(3_000),
    });
    return response.ok ? ((await response.json()) as Jsz) : undefined;
  } catch {
    return undefined; // a stopped node publishes no port, a starting one may not answer yet
  }
}

const current = (info: ClusterInfo | undefined): string[] => (info?.replicas ?? []).filter((r) => r.current).map((r) => r.name);

/** Every node's /jsz, each stream and consumer taken from the node that leads it. `containerOf` names a node's container. */
export async function clusterView(client: string, containerOf: (node: string) => string): Promise<ClusterView> {
  const view: ClusterView = { nodes: [], metaLeader: undefined, clusterSize: undefined, placements: [], seen: [] };
  const seen = new Set<string>();
  for (const node of NATS_NODES) {
    const info = await jsz(client, containerOf(node));
    if (!info) continue;
    view.nodes.push(node);
    view.metaLeader ??= info.meta_cluster?.leader;
    view.clusterSize ??= info.meta_cluster?.cluster_size;
    for (const stream of (info.account_details ?? []).flatMap((a) => a.stream_detail ?? [])) {
      const replicas = stream.config?.num_replicas ?? 1;
      seen.add(stream.name);
      if (stream.cluster?.leader === node)
        view.placements.push({ name: stream.name, replicas, leader: node, current: current(stream.cluster) });
      for (const consumer of stream.consumer_detail ?? []) {
        seen.add(`${stream.name}/${consumer.name}`);
        if (consumer.cluster?.leader !== node) continue;
        view.placements.push({ name: `${stream.name}/${consumer.name}`, replicas, leader: node, current: current(consumer.cluster) });
      }
    }
  }
  view.placements.sort((a, b) => a.name.localeCompare(b.name));
  view.seen = [...seen].sort();
  return view;
}

/** The view every half second until `done` holds, at most `timeoutMs`; the last one either way. */
export async function pollCluster(
  client: string,
  containerOf: (node: string) => string,
  done: (view: ClusterView) => boolean,
  timeoutMs = 60_000,
): Promise<ClusterView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await clusterView(client, containerOf);
    if (done(view) || Date.now() > deadline) return view;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** All three nodes answer, and every stream and consumer is on three with a leader and two current followers. */
export const whole = (view: ClusterView): boolean =>
  view.nodes.length === 3 && view.seen.length > 0 && notFullyReplicated(view).length === 0;

/** Streams and consumers not on three nodes with a leader and two current followers (none, when the cluster is whole). */
export function notFullyReplicated(view: ClusterView): string[] {
  const led = new Set(view.placements.map((p) => p.name));
  return [
    ...view.seen.filter((name) => !led.has(name)).map((name) => `${name}: no leader answered`),
    ...view.placements
      .filter((p) => p.replicas !== 3 || p.current.length !== 2 || p.current.includes(p.leader))
      .map((p) => `${p.name}: R${p.replicas}, leader ${p.leader}, current followers [${p.current.join(', ')}]`),
  ];
}

/** One line: the nodes, the meta leader, how many streams and consumers, and how the leaders spread. */
export function describeView(view: ClusterView): string {
  const streams = view.placements.filter((p) => !p.name.includes('/'));
  const leaders = new Map<string, number>();
  for (const p of view.placements) leaders.set(p.leader, (leaders.get(p.leader) ?? 0) + 1);
  return [
    `${view.nodes.length} nodes answering (${view.nodes.join(', ')}), cluster size ${view.clusterSize}, meta leader ${view.metaLeader}`,
    `${streams.length} streams [${streams.map((s) => `${s.name} R${s.replicas}`).join(', ')}], ${view.placements.length - streams.length} consumers`,
    `leaders ${[...leaders].map(([node, n]) => `${node} ${n}`).join(', ')}`,
    `not fully replicated: ${notFullyReplicated(view).length}`,
  ].join('; ');
}
