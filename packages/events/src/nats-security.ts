import { readFileSync } from 'node:fs';
import {
  credsAuthenticator,
  nkeyAuthenticator,
  usernamePasswordAuthenticator,
  type Authenticator,
  type NodeConnectionOptions,
} from '@nats-io/transport-node';

/**
 * How a service proves who it is to NATS and checks the server's certificate, from its environment, so
 * that no credential ever sits in NATS_URL (which a Kubernetes ConfigMap carries; deploy/README.md,
 * "NATS credentials and TLS"). Each file comes from a Secret (or, for the CA, a ConfigMap) mounted by the
 * chart. At most one way of logging in:
 *
 * - NATS_CREDS_FILE: a decentralised-auth `.creds` file (the user's JWT and nkey seed, `nsc generate creds`);
 * - NATS_NKEY_SEED_FILE: a file holding a user's nkey seed (`SU…`), for a server with nkey users;
 * - NATS_USER with NATS_PASSWORD: a user and password (the password from a Secret).
 *
 * TLS: NATS_CA_FILE (PEM) to trust a private CA; NATS_TLS_CERT_FILE with NATS_TLS_KEY_FILE for a client
 * certificate (mutual TLS). Any of them makes the connection require TLS.
 */
export interface NatsSecurityEnv {
  NATS_CREDS_FILE?: string | undefined;
  NATS_NKEY_SEED_FILE?: string | undefined;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_CA_FILE?: string | undefined;
  NATS_TLS_CERT_FILE?: string | undefined;
  NATS_TLS_KEY_FILE?: string | undefined;
}

/** A file the connection needs, read now so that a missing or empty one stops start-up with its variable named. */
function readRequired(variable: string, path: string): Uint8Array {
  let content: Buffer;
  try {
    content = readFileSync(path);
  } catch (error) {
    throw new Error(`${variable}=${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (content.toString('utf8').trim() === '') throw new Error(`${variable}=${path} is empty`);
  return new Uint8Array(content);
}

/**
 * Connection options for NATS credentials and TLS from the environment; {} when none is set. Throws a
 * message naming the variable when a file is missing or the settings contradict each other. Credential
 * files are read again at every (re)connect, so a rotated Secret is picked up without a restart.
 */
export function natsSecurityOptions(env: NatsSecurityEnv = process.env): Partial<NodeConnectionOptions> {
  const set = (value: string | undefined): value is string => value !== undefined && value !== '';
  const logins = (['NATS_CREDS_FILE', 'NATS_NKEY_SEED_FILE', 'NATS_USER'] as const).filter((name) => set(env[name]));
  if (logins.length > 1) throw new Error(`NATS: set one way of logging in, not ${logins.join(' and ')}`);
  if (set(env.NATS_PASSWORD) && !set(env.NATS_USER)) throw new Error('NATS_PASSWORD is set without NATS_USER');
  if (set(env.NATS_TLS_CERT_FILE) !== set(env.NATS_TLS_KEY_FILE)) {
    throw new Error('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together (a client certificate and its key)');
  }

  const options: Partial<NodeConnectionOptions> = {};
  let authenticator: Authenticator | undefined;
  if (set(env.NATS_CREDS_FILE)) {
    const file = env.NATS_CREDS_FILE;
    readRequired('NATS_CREDS_FILE', file);
    authenticator = credsAuthenticator(() => readRequired('NATS_CREDS_FILE', file));
  } else if (set(env.NATS_NKEY_SEED_FILE)) {
    const file = env.NATS_NKEY_SEED_FILE;
    const seed = () => new TextEncoder().encode(new TextDecoder().decode(readRequired('NATS_NKEY_SEED_FILE', file)).trim());
    seed();
    authenticator = nkeyAuthenticator(seed);
  } else if (set(env.NATS_USER)) {
    authenticator = usernamePasswordAuthenticator(env.NATS_USER, env.NATS_PASSWORD ?? '');
  }
  if (authenticator) options.authenticator = authenticator;

  if (set(env.NATS_CA_FILE) || set(env.NATS_TLS_CERT_FILE)) {
    const tls: NonNullable<NodeConnectionOptions['tls']> = {};
    if (set(env.NATS_CA_FILE)) {
      readRequired('NATS_CA_FILE', env.NATS_CA_FILE);
      tls.caFile = env.NATS_CA_FILE;
    }
    if (set(env.NATS_TLS_CERT_FILE) && set(env.NATS_TLS_KEY_FILE)) {
      readRequired('NATS_TLS_CERT_FILE', env.NATS_TLS_CERT_FILE);
      readRequired('NATS_TLS_KEY_FILE', env.NATS_TLS_KEY_FILE);
      tls.certFile = env.NATS_TLS_CERT_FILE;
      tls.keyFile = env.NATS_TLS_KEY_FILE;
    }
    options.tls = tls;
  }
  return options;
}
