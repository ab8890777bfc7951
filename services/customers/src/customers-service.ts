import { connectNats, contextStream, ensureStream, eventTablePurges, startOutboxRelay, startPurgeSchedule } from '@hc/events';
import { createGrpcServer } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CustomersService } from '@hc/proto/customers/v1';
import { customersHandlers } from './api/customers-handlers.ts';
import type { CustomersConfig } from './config.ts';
import { startCheckoutEventsConsumer } from './events/checkout-events-consumer.ts';
import { CustomersStore } from './store/customers-store.ts';
import { createCustomersPrisma } from './store/prisma.ts';
import type { CustomersDependencies } from './use-cases/dependencies.ts';

export interface RunningCustomersService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  /** The wired use-case dependencies (tests apply events through them). */
  readonly deps: CustomersDependencies;
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
  const prisma = createCustomersPrisma(config.CUSTOMERS_DATABASE_URL);
  await prisma.$connect();
  const deps: CustomersDependencies = { store: new CustomersStore(prisma), now: options.now ?? (() => new Date()) };

  const nats = await connectNats(config.NATS_URL, 'customers');
  await ensureStream(nats, contextStream(config.NATS_SUBJECT_PREFIX, 'customers', config));
  const relay = await startOutboxRelay({
    databaseUrl: config.CUSTOMERS_DATABASE_URL,
    nats,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    logger,
  });
  const consumer = await startCheckoutEventsConsumer(deps, nats, config.NATS_SUBJECT_PREFIX, config, logger, {
    ackWaitMs: options.ackWaitMs,
  });

  const purges = startPurgeSchedule(eventTablePurges(config.CUSTOMERS_DATABASE_URL, config), config.EVENTS_PURGE_INTERVAL_MS, logger);

  const server = createGrpcServer(logger);
  server.add(CustomersService, customersHandlers(deps));
  const port = await server.listen(config.CUSTOMERS_GRPC_ADDRESS);
  const host = config.CUSTOMERS_GRPC_ADDRESS.slice(0, config.CUSTOMERS_GRPC_ADDRESS.lastIndexOf(':'));
  return {
    address: `${host}:${port}`,
    deps,
    async stop() {
      await server.stop();
      await consumer.stop();
      await purges.stop();
      await relay.stop();
      await nats.drain();
      await prisma.$disconnect();
    },
  };
}
