import { eventTablePurges, outboxPosition, startPurgeSchedule } from '@hc/events';
import { createServiceClient, type ServiceClient } from '@hc/grpc';
import { startService } from '@hc/runtime/service';
import type { Logger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { SettlementService } from '@hc/proto/settlement/v1';
import { sharedAccountReads } from './adapters/shared-account-reads.ts';
import { adminHandlers } from './api/grpc/admin-handlers.ts';
import { checkoutHandlers } from './api/grpc/checkout-handlers.ts';
import { hostedHandlers } from './api/grpc/hosted-handlers.ts';
import type { CheckoutConfig } from './config.ts';
import { DEFAULT_PROVIDERS, type ProviderDefinition } from './domain/providers.ts';
import { checkoutStream } from './adapters/checkout-stream.ts';
import { consumeCustomerErasures } from './api/consumers/customer-erasure.ts';
import { consumeSettlementVerdicts } from './api/consumers/settlement-verdicts.ts';
import { startExpirySweeper } from './jobs/sweeper.ts';
import { PaymentStore } from './store/payments.ts';
import { CheckoutStore } from './store/checkouts.ts';
import { createCheckoutDatabase } from './store/prisma.ts';
import type { CheckoutDependencies } from './use-cases/dependencies.ts';

/**
 * A sale's many buyers of one merchant: their views read its account once per round trip, each read
 * still started after the view asked (docs/adr/0097).
 */
function withSharedAccountReads(client: ServiceClient<typeof MerchantAdminService>): ServiceClient<typeof MerchantAdminService> {
  return { ...client, getAccount: sharedAccountReads(client) };
}

export interface RunningCheckoutService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  /** The wired use-case dependencies (tests drive the sweeper and verdicts through them). */
  readonly deps: CheckoutDependencies;
  stop(): Promise<void>;
}

export interface CheckoutOptions {
  now?: () => Date;
  providers?: readonly ProviderDefinition[];
}

/**
 * Checkout on the service skeleton (@hc/runtime/service, docs/adr/0095): database → dependencies (the
 * settlement and accounts clients) → NATS (its stream, the outbox relay) → sweeper and purges →
 * erasure and verdict consumers → gRPC. Used by main.ts and by tests (with a test clock).
 */
export async function startCheckoutService(
  config: CheckoutConfig,
  logger: Logger,
  options: CheckoutOptions = {},
): Promise<RunningCheckoutService> {
  const providers = options.providers ?? DEFAULT_PROVIDERS;
  const stream = checkoutStream(config.NATS_SUBJECT_PREFIX, config);
  const service = await startService({
    name: 'checkout',
    logger,
    database: {
      open: async () => {
        const database = createCheckoutDatabase(config.CHECKOUT_DATABASE_URL);
        await database.prisma.$connect();
        return database;
      },
      close: (database) => database.close(),
    },
    dependencies: (database, life): CheckoutDependencies => ({
      payments: new PaymentStore(database, { publicBaseUrl: config.PUBLIC_BASE_URL, providers }),
      checkouts: new CheckoutStore(database.prisma),
      settlement: life.own(
        'settlement client',
        createServiceClient(SettlementService, config.SETTLEMENT_GRPC_ADDRESS, { timeoutMs: config.SETTLEMENT_TIMEOUT_MS }),
        (client) => client.close(),
      ),
      // Accounts owns the merchant: the buyer's side reads wallet, fee and status there (docs/adr/0037).
      accounts: withSharedAccountReads(
        life.own(
          'accounts client',
          createServiceClient(MerchantAdminService, config.ACCOUNTS_GRPC_ADDRESS, { timeoutMs: config.ACCOUNTS_TIMEOUT_MS }),
          (client) => client.close(),
        ),
      ),
      providers,
      now: options.now ?? (() => new Date()),
      publicBaseUrl: config.PUBLIC_BASE_URL,
    }),
    events: {
      natsUrl: config.NATS_URL,
      streams: [stream],
      relay: { databaseUrl: config.CHECKOUT_DATABASE_URL, subjectPrefix: config.NATS_SUBJECT_PREFIX },
    },
    jobs: ({ deps }) => ({
      sweeper: startExpirySweeper(deps, logger, config.EXPIRY_SWEEP_INTERVAL_MS),
      purges: startPurgeSchedule(eventTablePurges(config.CHECKOUT_DATABASE_URL, config), config.EVENTS_PURGE_INTERVAL_MS, logger),
    }),
    consumers: async ({ nats, deps }) => ({
      erasures: await consumeCustomerErasures(nats, config.NATS_SUBJECT_PREFIX, deps, config, logger),
      verdicts: await consumeSettlementVerdicts(nats, config.NATS_SUBJECT_PREFIX, deps, config, logger),
    }),
    grpc: {
      address: config.CHECKOUT_GRPC_ADDRESS,
      register(server, { nats, relay, deps, life }) {
        const position = outboxPosition({ databaseUrl: config.CHECKOUT_DATABASE_URL, nats: nats, stream: stream.name, relay });
        life.own('events position', position, (started) => started.close());
        server.add(CheckoutService, checkoutHandlers(deps, position, logger));
        // Operator CLI and dashboard only; the gateway's merchant API never calls it (ADR 0024).
        server.add(CheckoutAdminService, adminHandlers(deps));
        server.addPublic(HostedCheckoutService, hostedHandlers(deps, logger));
      },
    },
  });
  return { address: service.address!, deps: service.deps, stop: () => service.stop() };
}
