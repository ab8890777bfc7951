/**
 * The configuration files of the disposable PostgreSQL cluster (./postgres-cluster.ts): one Patroni
 * node's YAML and HAProxy's, in the shape Patroni documents for production (docs/adr/0091), with
 * timings shortened for a test and trust authentication on 127.0.0.1.
 */
import { dirname, join } from 'node:path';

export interface NodePorts {
  readonly name: string;
  /** PostgreSQL's port. */
  readonly postgres: number;
  /** Patroni's REST API (GET /primary answers 200 on the primary only; HAProxy's health check). */
  readonly rest: number;
}

/**
 * Patroni's leader key lives `ttl` seconds in etcd unless the primary's Patroni renews it (every
 * `loop_wait`): the primary lost, the standby takes over after at most about `ttl` + `loop_wait`.
 * Patroni's rule: loop_wait + 2 × retry_timeout ≤ ttl. Production keeps Patroni's 30/10/10.
 */
export const TEST_TIMINGS = { ttl: 10, loop_wait: 1, retry_timeout: 3 } as const;

/**
 * One Patroni node. JSON is YAML, so the object is written as is. `synchronous_mode: true`: a commit
 * is acknowledged only once the synchronous standby has it, and Patroni promotes only that standby
 * (named in etcd), so no acknowledged commit is lost at failover; not strict, so with the standby down
 * the primary goes on alone rather than refusing every write (docs/adr/0091 says why).
 */
export function patroniConfig(options: {
  scope: string;
  etcdPort: number;
  node: NodePorts;
  dir: string;
  bin: string;
}): Record<string, unknown> {
  const { node, dir } = options;
  return {
    scope: options.scope,
    namespace: '/hc-test/',
    name: node.name,
    log: { level: 'WARNING' },
    restapi: { listen: `127.0.0.1:${node.rest}`, connect_address: `127.0.0.1:${node.rest}` },
    etcd3: { hosts: [`127.0.0.1:${options.etcdPort}`] },
    bootstrap: {
      dcs: {
        ...TEST_TIMINGS,
        maximum_lag_on_failover: 1_048_576,
        synchronous_mode: true,
        synchronous_mode_strict: false,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            // The platform's many pools (every service, every replica) on one server, as the single test server allows.
            max_connections: 300,
            max_wal_senders: 10,
            max_replication_slots: 10,
            // A kill -9 of the processes keeps the operating system's page cache: syncing to disk protects
            // nothing in this test and costs the shared machine a great deal.
            fsync: 'off',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }],
    },
    postgresql: {
      listen: `127.0.0.1:${node.postgres}`,
      connect_address: `127.0.0.1:${node.postgres}`,
      data_dir: join(dir, 'data'),
      bin_dir: options.bin,
      pgpass: join(dir, 'pgpass'),
      authentication: {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'replicator', password: 'replicator' },
      },
      parameters: { unix_socket_directories: dir },
      pg_hba: ['local all all trust', 'host replication replicator 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 trust'],
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

/**
 * HAProxy in front of the nodes, Patroni's documented pattern: a node takes connections only while
 * its REST API answers GET /primary with 200, and the sessions to a node marked down are cut at once
 * (`on-marked-down shutdown-sessions`), so no client keeps writing to a former primary.
 */
export function haproxyConfig(port: number, nodes: readonly NodePorts[]): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 30m',
    '  timeout server 30m',
    '  timeout check 1s',
    'listen primary',
    `  bind 127.0.0.1:${port}`,
    '  option httpchk GET /primary',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.postgres} maxconn 1000 check port ${node.rest}`),
    '',
  ].join('\n');
}

/** The folder of a PostgreSQL binary (Patroni's bin_dir). */
export function binDir(initdbPath: string): string {
  return dirname(initdbPath);
}
