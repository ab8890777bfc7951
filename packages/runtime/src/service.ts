import { connectNats, ensureStream, startOutboxRelay, type NatsConnection, type OutboxRelay, type StreamOptions } from '@hc/events';
import { createGrpcServer, type GrpcServer } from '@hc/grpc';
import type { Logger } from 'pino';
import { ServiceLife } from './service-life.ts';

/** Anything a service starts and stops: a consumer, a job, a listener, a metrics observer. */
export interface Stoppable {
  stop(): Promise<void> | void;
}

/** A slot's parts, by name: the names are how logs, tests and the running service refer to them. */
export type Parts = Record<string, Stoppable>;

/** What the slots after the database see of the parts started before them. */
export interface StartedService<Db, Deps> {
  readonly name: string;
  readonly logger: Logger;
  readonly database: Db;
  readonly deps: Deps;
  /** The NATS connection; reading it in a service without `events` throws (a wiring mistake). */
  readonly nats: NatsConnection;
  /** The outbox relay; reading it in a service without `events.relay` throws. */
  readonly relay: OutboxRelay;
  /** Owns a part a slot starts besides the ones it returns (it stops in reverse order with them). */
  readonly life: ServiceLife;
}

export interface ServiceDefinition<Db, Deps, C extends Parts, J extends Parts, L extends Parts> {
  readonly name: string;
  readonly logger: Logger;
  /**
   * The service's own database: opened first, closed last. Absent in a service that has none (the
   * hosted pages call other services only): the slots then see `database` as undefined.
   */
  readonly database?: { readonly open: () => Promise<Db>; readonly close: (database: Db) => Promise<void> | void };
  /** The use cases' dependencies; clients of other services they hold are closed with `life.own`. */
  readonly dependencies: (database: Db, life: ServiceLife) => Deps | Promise<Deps>;
  /** NATS, the streams this context publishes to (created or updated), and its outbox relay. */
  readonly events?: {
    readonly natsUrl: string;
    readonly streams?: readonly StreamOptions[];
    readonly relay?: { readonly databaseUrl: string; readonly subjectPrefix: string };
  };
  /** Timers and workers (sweepers, purges, delivery workers): started before anything can feed them. */
  readonly jobs?: (service: StartedService<Db, Deps>) => J | Promise<J>;
  /** NATS consumers: started once the jobs they may wake run. */
  readonly consumers?: (service: StartedService<Db, Deps>) => C | Promise<C>;
  /** Inbound listeners other than gRPC (HTTP notices, hooks). */
  readonly listeners?: (service: StartedService<Db, Deps>) => L | Promise<L>;
  /** The gRPC server, started last: its health turns SERVING only when every other part runs. */
  readonly grpc?: {
    readonly address: string;
    readonly register: (server: GrpcServer, service: StartedParts<Db, Deps, C, J, L>) => void;
    /** How long calls in flight may finish at stop. Default 10 s. */
    readonly graceMs?: number;
  };
}

/** What gRPC, started last, sees: every other part. */
export interface StartedParts<Db, Deps, C extends Parts, J extends Parts, L extends Parts> extends StartedService<Db, Deps> {
  readonly consumers: C;
  readonly jobs: J;
  readonly listeners: L;
}

export interface RunningService<Db, Deps, C extends Parts, J extends Parts, L extends Parts> extends StartedParts<Db, Deps, C, J, L> {
  /** host:port the gRPC server answers on, when the service has one. */
  readonly address: string | undefined;
  /** Stops every part in reverse start order, once (a second call waits for the first). */
  stop(): Promise<void>;
}

/**
 * The one service skeleton (docs/adr/0095): starts a service's parts in a fixed order — database,
 * dependencies, NATS (streams, outbox relay), jobs, consumers, listeners, gRPC — and stops them in
 * reverse. A part that fails to start stops the ones already started, so a failed start leaves no
 * connection or timer behind, and the error is rethrown.
 */
export async function startService<
  Db = undefined,
  Deps = unknown,
  C extends Parts = Parts,
  J extends Parts = Parts,
  L extends Parts = Parts,
>(definition: ServiceDefinition<Db, Deps, C, J, L>): Promise<RunningService<Db, Deps, C, J, L>> {
  const life = new ServiceLife(definition.logger);
  try {
    return await startParts(definition, life);
  } catch (error) {
    definition.logger.error({ err: error, started: life.started }, `${definition.name}: start failed; stopping what started`);
    await life.stop().catch(() => undefined);
    throw error;
  }
}

/** Parts started as a list (several pullers of one consumer): named `<name> 1`, `<name> 2`, … */
export function numbered(name: string, parts: readonly Stoppable[]): Parts {
  return Object.fromEntries(parts.map((part, i) => [`${name} ${i + 1}`, part]));
}

async function startParts<Db, Deps, C extends Parts, J extends Parts, L extends Parts>(
  definition: ServiceDefinition<Db, Deps, C, J, L>,
  life: ServiceLife,
): Promise<RunningService<Db, Deps, C, J, L>> {
  const { name, logger } = definition;
  const database = await openDatabase(definition.database, life);
  const deps = await definition.dependencies(database, life);
  const { nats, relay } = await startEvents(definition, life);
  const service: StartedService<Db, Deps> = {
    name,
    logger,
    database,
    deps,
    life,
    get nats() {
      if (!nats) throw new Error(`${name} has no events slot: no NATS connection`);
      return nats;
    },
    get relay() {
      if (!relay) throw new Error(`${name} has no events.relay: no outbox relay`);
      return relay;
    },
  };
  const jobs = ownAll(life, 'job', await definition.jobs?.(service));
  const consumers = ownAll(life, 'consumer', await definition.consumers?.(service));
  const listeners = ownAll(life, 'listener', await definition.listeners?.(service));
  // Over `service` as prototype: its nats/relay getters stay getters (a spread would call them).
  const parts: StartedParts<Db, Deps, C, J, L> = Object.assign(Object.create(service) as StartedService<Db, Deps>, {
    jobs,
    consumers,
    listeners,
  });
  const address = definition.grpc ? await startGrpc(definition.grpc, parts) : undefined;
  return Object.assign(Object.create(parts) as StartedParts<Db, Deps, C, J, L>, { address, stop: () => life.stop() });
}

/** Without a database slot, Db is undefined (startService's default): nothing is opened or owned. */
async function openDatabase<Db>(slot: ServiceDefinition<Db, unknown, Parts, Parts, Parts>['database'], life: ServiceLife): Promise<Db> {
  if (!slot) return undefined as Db;
  return life.own('database', await slot.open(), slot.close);
}

async function startEvents(
  definition: Pick<ServiceDefinition<unknown, unknown, Parts, Parts, Parts>, 'name' | 'logger' | 'events'>,
  life: ServiceLife,
): Promise<{ nats: NatsConnection | undefined; relay: OutboxRelay | undefined }> {
  const events = definition.events;
  if (!events) return { nats: undefined, relay: undefined };
  const nats = life.own('nats', await connectNats(events.natsUrl, definition.name), (connection) => connection.drain());
  for (const stream of events.streams ?? []) await ensureStream(nats, stream);
  if (!events.relay) return { nats, relay: undefined };
  const relay = await startOutboxRelay({ ...events.relay, nats, logger: definition.logger });
  return { nats, relay: life.own('outbox relay', relay, (running) => running.stop()) };
}

function ownAll<P extends Parts>(life: ServiceLife, role: string, parts: P | undefined): P {
  for (const [name, part] of Object.entries(parts ?? {})) life.own(`${role} ${name}`, part, (started) => started.stop());
  return parts ?? ({} as P);
}

async function startGrpc<Db, Deps, C extends Parts, J extends Parts, L extends Parts>(
  grpc: NonNullable<ServiceDefinition<Db, Deps, C, J, L>['grpc']>,
  parts: StartedParts<Db, Deps, C, J, L>,
): Promise<string> {
  const server = createGrpcServer(parts.logger);
  grpc.register(server, parts);
  // Owned before it listens: a bind that fails still closes the server.
  parts.life.own('grpc', server, (started) => started.stop(grpc.graceMs));
  return server.listenAt(grpc.address);
}
