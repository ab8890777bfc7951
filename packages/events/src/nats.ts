import { JetStreamApiCodes, JetStreamApiError, jetstreamManager, StorageType, type StreamInfo } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';

import { whileJetStreamSettles } from './jetstream-settling.ts';
import { natsSecurityOptions } from './nats-security.ts';
import type { EventRetention } from './retention.ts';
import { streamReplicas } from './stream-replicas.ts';

export type { NatsConnection };

/**
 * Connects to NATS for a long-running service. The first connect fails fast (a wrong URL or a
 * missing server should stop start-up loudly), but once connected the client reconnects forever:
 * the library's default gives up after 10 attempts and closes the connection for good, which would
 * turn a NATS restart into a dead relay. Credentials and TLS come from the environment
 * (natsSecurityOptions: NATS_CREDS_FILE, NATS_NKEY_SEED_FILE, NATS_USER/NATS_PASSWORD, NATS_CA_FILE, …),
 * never from the URL. `options` overrides anything (tests use short waits).
 */
export function connectNats(url: string, name: string, options: Partial<NodeConnectionOptions> = {}): Promise<NatsConnection> {
  // waitOnFirstConnect: a process (re)starting while NATS is briefly away waits for it, retrying every
  // second like a reconnect, instead of dying at boot (found by the fault suite: a service restarted
  // during a NATS outage crashed again and again). Until connected it is simply not ready.
  // noAsyncTraces: by default every request (a JetStream publish or ack-ack is one) builds an Error with
  // its stack up front, in case it times out later; that was 40-60 % of a publish's CPU
  // (tools/bench/src/nats-publish.ts: 42-61 µs against 25-27 µs), paid once per event by every outbox
  // relay. A timeout still rejects with a TimeoutError; it only lacks the caller's frames.
  return connect({
    // A comma-separated list is a cluster: the client picks one and fails over to the others.
    servers: url.split(',').map((server) => server.trim()),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    waitOnFirstConnect: true,
    noAsyncTraces: true,
    ...natsSecurityOptions(process.env),
    ...options,
  });
}

export interface StreamOptions {
  name: string;
  subjects: string[];
  /** How long the server remembers `Nats-Msg-Id`s to drop re-publishes. Default 2 minutes. */
  duplicateWindowMs?: number;
  /**
   * Drop messages older than this: required, so no stream keeps messages (and the personal data in
   * them) forever. Take it from the deployment's EVENTS_STREAM_MAX_AGE_MS (`contextStream`).
   */
  maxAgeMs: number;
  /** Servers that keep a copy (stream-replicas.ts): NATS_STREAM_REPLICAS unless given, 1 by default. */
  replicas?: number;
}

export const DEFAULT_DUPLICATE_WINDOW_MS = 120_000;

// 10058 "stream name already in use": another replica created it between our info and add.
const STREAM_NAME_IN_USE = 10058;

/**
 * Creates the stream, or brings an existing one's subjects, duplicate window and max age up to date,
 * so every replica can call it at start-up. File storage: events must survive a NATS restart.
 * NATS refuses a duplicate window longer than the max age; so do we, before asking it. Asked again
 * while a JetStream cluster is still electing its leaders (jetstream-settling.ts).
 */
export async function ensureStream(nc: NatsConnection, options: StreamOptions): Promise<StreamInfo> {
  const duplicateWindowMs = options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS;
  if (!Number.isInteger(options.maxAgeMs) || options.maxAgeMs <= duplicateWindowMs) {
    throw new Error(`stream ${options.name}: maxAgeMs must be a whole number of ms above the duplicate window (${duplicateWindowMs})`);
  }
  return whileJetStreamSettles(() => createOrUpdateStream(nc, options, duplicateWindowMs));
}

async function createOrUpdateStream(nc: NatsConnection, options: StreamOptions, duplicateWindowMs: number): Promise<StreamInfo> {
  const jsm = await jetstreamManager(nc);
  const settings = {
    subjects: options.subjects,
    duplicate_window: nanos(duplicateWindowMs),
    max_age: nanos(options.maxAgeMs),
    num_replicas: options.replicas ?? streamReplicas(),
  };
  const update = () => jsm.streams.update(options.name, settings);
  try {
    // update() reads the current config and merges ours into it, so unrelated settings survive.
    return await update();
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
  }
  try {
    return await jsm.streams.add({ name: options.name, storage: StorageType.File, ...settings });
  } catch (error) {
    if (!isApiError(error, STREAM_NAME_IN_USE)) throw error;
    return update();
  }
}

export function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * Naming convention: one stream per bounded context. With prefix "t_x" and context "checkout" the
 * stream is "T_X_CHECKOUT" and holds "t_x.checkout.>"; production uses the empty prefix
 * ("CHECKOUT", "checkout.>"). Test files get their own prefix so they can share one server.
 */
export function streamName(prefix: string, context: string): string {
  return (prefix ? `${prefix}_${context}` : context).toUpperCase().replace(/[^A-Z0-9_-]/g, '_');
}

/** The full subject for a relative one ("checkout.payment.paid"). */
export function prefixedSubject(prefix: string, subject: string): string {
  return prefix ? `${prefix}.${subject}` : subject;
}

/**
 * The stream of a bounded context: `contextStream('t_x', 'checkout', retention)` is "T_X_CHECKOUT"
 * holding "t_x.checkout.>", keeping messages for the deployment's EVENTS_STREAM_MAX_AGE_MS. Producers
 * and consumers both ensure it (whoever starts first creates it) with the same retention. This is the
 * one way a service makes a stream.
 */
export function contextStream(prefix: string, context: string, retention: Pick<EventRetention, 'EVENTS_STREAM_MAX_AGE_MS'>): StreamOptions {
  return { name: streamName(prefix, context), subjects: [contextSubjects(prefix, context)], maxAgeMs: retention.EVENTS_STREAM_MAX_AGE_MS };
}

/** All subjects of a context: the stream's subject list and a consumer's widest filter. */
export function contextSubjects(prefix: string, context: string): string {
  return prefixedSubject(prefix, `${context}.>`);
}
