import {
  allConsumersSettled,
  connectNats,
  consumerProgress,
  contextStream,
  ensureStream,
  eventTablePurges,
  outboxPosition,
  startOutboxRelay,
  startPurgeSchedule,
  type DurableConsumer,
} from '@hc/events';
import { createGrpcServer } from '@hc/grpc';
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
 * Wires config → database → NATS (outbox relay for customer events, durable consumer of checkout
 * events) → gRPC server with health. Used by main.ts and by tests.
 */
export async function startCustomersService(
  config: CustomersConfig,
  logger: Logger,
  options: CustomersOptions = {},
): Promise<RunningCustomersService> {
  const database = createCustomersDatabase(config.CUSTOMERS_DATABASE_URL);
  await database.prisma.$connect();
  const deps: CustomersDependencies = { store: new CustomersStore(database), now: options.now ?? (() => new Date()) };

  const nats = await connectNats(config.NATS_URL, 'customers');
  const ownStream = contextStream(config.NATS_SUBJECT_PREFIX, 'customers', config);
  await ensureStream(nats, ownStream);
  const relay = await startOutboxRelay({
    databaseUrl: config.CUSTOMERS_DATABASE_URL,
    nats,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    logger,
  });
  // Read-your-writes (docs/adr/0011): reads wait on the consumer's ack floor; this replica's acks wake them.
  const progress = consumerProgress(nats, contextStream(config.NATS_SUBJECT_PREFIX, 'checkout', config).name, CHECKOUT_EVENTS_CONSUMER);
  const startConsumer = () =>
    startCheckoutEventsConsumer(deps, nats, config.NATS_SUBJECT_PREFIX, config, logger, {
      ackWaitMs: options.ackWaitMs,
      onAcked: () => progress.wake(),
    });
  let consumer: DurableConsumer | undefined = await startConsumer();
  const ownPosition = outboxPosition({ databaseUrl: config.CUSTOMERS_DATABASE_URL, nats, stream: ownStream.name, relay });
  const barriers: Barriers = {
    checkoutApplied: (sequence, timeoutMs) => progress.settled(sequence, timeoutMs),
    async ownEventsApplied(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const sequence = await ownPosition.current(timeoutMs);
      return sequence !== null && allConsumersSettled(nats, ownStream.name, sequence, deadline - Date.now());
    },
  };

  const purges = startPurgeSchedule(eventTablePurges(config.CUSTOMERS_DATABASE_URL, config), config.EVENTS_PURGE_INTERVAL_MS, logger);

  const server = createGrpcServer(logger);
  server.add(CustomersService, customersHandlers(deps, barriers));
  const address = await server.listenAt(config.CUSTOMERS_GRPC_ADDRESS);
  return {
    address,
    deps,
    async pauseConsumer() {
      await consumer?.stop();
      consumer = undefined;
    },
    async resumeConsumer() {
      consumer ??= await startConsumer();
    },
    async stop() {
      await server.stop();
      progress.stop();
      await consumer?.stop();
      await purges.stop();
      await relay.stop();
      await ownPosition.close();
      await nats.drain();
      await database.close();
    },
  };
}
