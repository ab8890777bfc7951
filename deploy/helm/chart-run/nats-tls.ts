/**
 * NATS as a cluster's would be: TLS with a private CA and a user with a password (issue 45, item 3). For
 * each run, openssl makes a CA and one server certificate, valid a day, for every name a client or a
 * peer dials: `nats` (the Service) and each node's own name (`nats-0`, `nats-1`, `nats-2`: the clients'
 * URLs and the cluster's routes, nats-cluster.ts); the password is random. The nodes present the same
 * certificate to clients and, as mutual TLS, to each other on their routes. The services get the CA and
 * the login from the Secrets the chart names (nats.tls.caSecretName, nats.auth.secretName), as in a cluster.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NATS_NODES } from './nats-cluster.ts';

export interface NatsLogin {
  user: string;
  password: string;
  /** PEM of the CA that signed the server's certificate. */
  ca: string;
  /** Directory with ca.crt, server.crt and server.key, mounted into every NATS container. */
  certs: string;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * A random password that nats-server reads as a string. Each node's file names it as `$NATS_PASSWORD`,
 * and nats-server parses a variable's value as a value of its config language: a hex string that starts
 * with digits and has an `e` (`41e1cd…`, one random 18-byte hex in ~15) reads as a number, the file does
 * not parse and the node exits at start (CI of 30 Nov: nats-0 exited four times, its reason on stderr).
 * A leading letter keeps any hex a string; chart-run-nats-login.test.ts checks it with nats-server itself.
 */
export function natsPassword(): string {
  return `p${randomBytes(18).toString('hex')}`;
}

export function makeNatsLogin(state: string): NatsLogin {
  const certs = join(state, 'nats-tls');
  mkdirSync(certs, { recursive: true, mode: 0o755 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(certs, 'req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=chart-run NATS CA');
  openssl(certs, 'req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=nats');
  const names = ['nats', ...NATS_NODES, 'localhost'].map((name) => `DNS:${name}`);
  writeFileSync(join(certs, 'server.ext'), `subjectAltName=${names.join(',')},IP:127.0.0.1\n`);
  openssl(
    certs,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    'server.ext',
    '-out',
    'server.crt',
  );
  // The NATS process runs as the image's user: it must read its key (the directory is under .local, 0700).
  chmodSync(join(certs, 'server.key'), 0o644);
  return { user: 'hosted-checkout', password: natsPassword(), ca: readFileSync(join(certs, 'ca.crt'), 'utf8'), certs };
}
