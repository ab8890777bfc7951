import {
  allConsumersSettled,
  consumerProgress,
  contextStream,
  eventTablePurges,
  outboxPosition,
  startPurgeSchedule,
  type ConsumerProgress,
  type DurableConsumer,
  type NatsConnection,
  type OutboxPosition,
} from '@hc/events';
import { startService } from '@hc/runtime/service';
import type { Logger } from '@hc/logging';
import { CustomersService } from '@hc/proto/customers/v1';
import { customersHandlers } from './api/grpc/customers-handlers.ts';
import type { CustomersConfig } from './config.ts';
import { CHECKOUT_EVENTS_CONSUMER, startCheckoutEventsConsumer } from './api/consumers/checkout-events-consumer.ts';
import { CustomersStore } from './store/customers-store.ts';
import { createCustomersDatabase } from './store/prisma.ts';
import type { CustomersDependencies } from './use-cases/dependencies.ts';
import type { Barriers } from './use-cases/read-barrier.ts';

export interface RunningCustomersService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  /** The wired use-case dependencies (tests apply events through them). */
  readonly deps: CustomersDependencies;
  /** Stops applying checkout events (reads keep being served, and wait); for maintenance and tests. */
  pauseConsumer(): Promise<void>;
  /** Applies checkout events again, from the durable consumer's position. */
  resumeConsumer(): Promise<void>;
  stop(): Promise<void>;
}

export interface CustomersOptions {
  now?: () => Date;
  /**
   * How long JetStream waits for an ack before redelivering (default 30 s). Messages a stopping
   * replica had pulled but not handled come back after this; tests that restart use a short one.
   */
  ackWaitMs?: number;
}

/**
 * Customers on the service skeleton (@hc/runtime/service, docs/adr/0095): database → NATS (its stream,
 * the outbox relay) → purges → the checkout events consumer (pausable) → gRPC, whose reads wait on
 * read barriers (docs/adr/0011). Used by main.ts and by tests (with a test clock).
 */
export async function startCustomersService(
  config: CustomersConfig,
  logger: Logger,
  options: CustomersOptions = {},
): Promise<RunningCustomersService> {
  const ownStream = contextStream(config.NATS_SUBJECT_PREFIX, 'customers', config);
  const service = await startService({
    name: 'customers',
    logger,
    database: {
      open: async () => {
        const database = createCustomersDatabase(config.CUSTOMERS_DATABASE_URL);
        await database.prisma.$connect();
        return database;
      },
      close: (database) => database.close(),
    },
    dependencies: (database): CustomersDependencies => ({ store: new CustomersStore(database), now: options.now ?? (() => new Date()) }),
    events: {
      natsUrl: config.NATS_URL,
      streams: [ownStream],
      relay: { databaseUrl: config.CUSTOMERS_DATABASE_URL, subjectPrefix: config.NATS_SUBJECT_PREFIX },
    },
    jobs: () => ({
      purges: startPurgeSchedule(eventTablePurges(config.CUSTOMERS_DATABASE_URL, config), config.EVENTS_PURGE_INTERVAL_MS, logger),
    }),
    consumers: async ({ nats, deps }) => {
      // Read-your-writes (docs/adr/0011): reads wait on the consumer's ack floor; this replica's acks wake them.
      const checkoutStream = contextStream(config.NATS_SUBJECT_PREFIX, 'checkout', config).name;
      const progress = consumerProgress(nats, checkoutStream, CHECKOUT_EVENTS_CONSUMER);
      const checkoutEvents = pausableConsumer(() =>
        startCheckoutEventsConsumer(deps, nats, config.NATS_SUBJECT_PREFIX, config, logger, {
          ackWaitMs: options.ackWaitMs,
          onAcked: () => progress.wake(),
        }),
      );
      // progress first: it stops after the consumer whose acks wake it (reverse order).
      await checkoutEvents.start();
      return { progress, checkoutEvents };
    },
    grpc: {
      address: config.CUSTOMERS_GRPC_ADDRESS,
      register(server, { nats, relay, deps, life, consumers }) {
        const ownPosition = life.own(
          'own events position',
          outboxPosition({ databaseUrl: config.CUSTOMERS_DATABASE_URL, nats, stream: ownStream.name, relay }),
          (position) => position.close(),
        );
        server.add(CustomersService, customersHandlers(deps, readBarriers(nats, ownStream.name, ownPosition, consumers.progress), logger));
      },
    },
  });
  const { checkoutEvents } = service.consumers;
  return {
    address: service.address!,
    deps: service.deps,
    pauseConsumer: () => checkoutEvents.stop(),
    resumeConsumer: () => checkoutEvents.start(),
    stop: () => service.stop(),
  };
}

/** The two waits a read may ask for (docs/adr/0011): checkout's events applied here, and this context's own events applied everywhere. */
function readBarriers(nats: NatsConnection, ownStream: string, ownPosition: OutboxPosition, progress: ConsumerProgress): Barriers {
  return {
    checkoutApplied: (sequence, timeoutMs) => progress.settled(sequence, timeoutMs),
    async ownEventsApplied(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const sequence = await ownPosition.current(timeoutMs);
      return sequence !== null && allConsumersSettled(nats, ownStream, sequence, deadline - Date.now());
    },
  };
}

/** The checkout events consumer, which maintenance and tests may pause (stop) and resume (start again). */
function pausableConsumer(start: () => Promise<DurableConsumer>): { start(): Promise<void>; stop(): Promise<void> } {
  let consumer: DurableConsumer | undefined;
  return {
    async start() {
      consumer ??= await start();
    },
    async stop() {
      await consumer?.stop();
      consumer = undefined;
    },
  };
}
