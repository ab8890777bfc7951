/**
 * The faults of the many-node topology (docs/replicas.md): a JetStream cluster started ready for
 * streams of three replicas, one of its nodes stopped and brought back, and PostgreSQL failed over from
 * its primary to the synchronous standby (Patroni behind HAProxy, docs/adr/0091) with the old primary
 * back as the new standby.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '@hc/events';
import {
  eventually,
  startDisposableNatsCluster,
  type DisposableNatsCluster,
  type DisposablePostgresCluster,
  type PostgresClusterNode,
} from '@hc/test-kit';

/**
 * Three nodes, returned once the cluster has elected its meta leader: until then JetStream refuses to
 * create a stream, and every service would crash into a restart on its first ensureStream.
 */
export async function startJetStreamCluster(): Promise<DisposableNatsCluster> {
  const cluster = await startDisposableNatsCluster();
  try {
    const nc = await connectNats(cluster.url, 'faults-cluster-ready', { reconnectTimeWait: 100 });
    try {
      // Not checked at creation (that would fail before the election): asked below until it answers.
      const jsm = await jetstreamManager(nc, { checkAPI: false });
      const ready = await eventually(
        () =>
          jsm.getAccountInfo().then(
            () => true,
            () => false,
          ),
        (ok) => ok,
        60_000,
      );
      if (!ready) throw new Error('the JetStream cluster elected no meta leader within 60 s');
    } finally {
      await nc.close();
    }
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

export interface NatsNodeStop {
  readonly node: number;
  readonly at: number;
  readonly downMs: number;
}

/** Node `node` SIGKILLed, down `downMs`, then started again on its store (it catches up from the others). */
export async function stopNatsNode(cluster: DisposableNatsCluster, node: number, downMs: number): Promise<NatsNodeStop> {
  const at = Date.now();
  await cluster.nodes[node]!.kill();
  await new Promise((resolve) => setTimeout(resolve, downMs));
  await cluster.nodes[node]!.start();
  return { node, at, downMs };
}

export interface Failover {
  readonly old: PostgresClusterNode;
  readonly promoted: PostgresClusterNode;
  readonly killedAt: number;
  /** When HAProxy reached the promoted node. */
  readonly writableAt: number;
  /** When the old primary was the new one's synchronous standby. */
  readonly rejoinedAt: number;
}

/**
 * The primary lost like a machine (its Patroni and PostgreSQL SIGKILLed); Patroni promotes the standby
 * and HAProxy follows; the old node started again rejoins as the synchronous standby.
 */
export async function failOver(cluster: DisposablePostgresCluster): Promise<Failover> {
  const old = await cluster.primary();
  if (!old) throw new Error('no PostgreSQL primary to fail over from');
  const killedAt = Date.now();
  await old.kill();
  const promoted = await cluster.waitForPrimary({ not: old, timeoutMs: 90_000 });
  const writableAt = Date.now();
  old.start();
  await cluster.waitForSyncStandby(old, 120_000);
  return { old, promoted, killedAt, writableAt, rejoinedAt: Date.now() };
}

/** `s.s`: seconds between two moments, for summary lines. */
export const seconds = (from: number, to: number): string => ((to - from) / 1000).toFixed(1);
