/**
 * NATS as a cluster's would be: TLS with a private CA and a user with a password (issue 45, item 3). For
 * each run, openssl makes a CA and a server certificate for the name `nats` (the Service name the values
 * give), valid a day; the password is random. The services get the CA and the login from the Secrets the
 * chart names (nats.tls.caSecretName, nats.auth.secretName), as in a cluster.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface NatsLogin {
  user: string;
  password: string;
  /** PEM of the CA that signed the server's certificate. */
  ca: string;
  /** Directory with server.crt and server.key, mounted into the NATS container. */
  certs: string;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

export function makeNatsLogin(state: string): NatsLogin {
  const certs = join(state, 'nats-tls');
  mkdirSync(certs, { recursive: true, mode: 0o755 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(certs, 'req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=chart-run NATS CA');
  openssl(certs, 'req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=nats');
  writeFileSync(join(certs, 'server.ext'), 'subjectAltName=DNS:nats,DNS:localhost,IP:127.0.0.1\n');
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
  return { user: 'hosted-checkout', password: randomBytes(18).toString('hex'), ca: readFileSync(join(certs, 'ca.crt'), 'utf8'), certs };
}

/** `podman run` arguments before the image (the certificates) and the server's own arguments after it. */
export function natsServerArgs(login: NatsLogin): { run: string[]; server: string[] } {
  return {
    run: ['-v', `${login.certs}:/certs:ro`],
    server: ['--tls', '--tlscert', '/certs/server.crt', '--tlskey', '/certs/server.key', '--user', login.user, '--pass', login.password],
  };
}
