import { connectNats, ensureStream, eventTablePurges, outboxPosition, startOutboxRelay, startPurgeSchedule } from '@hc/events';
import { createGrpcServer, createServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { sharedAccountReads } from './adapters/shared-account-reads.ts';
import { SettlementService } from '@hc/proto/settlement/v1';
import { adminHandlers } from './api/grpc/admin-handlers.ts';
import { checkoutHandlers } from './api/grpc/checkout-handlers.ts';
import { hostedHandlers } from './api/grpc/hosted-handlers.ts';
import type { CheckoutConfig } from './config.ts';
import { DEFAULT_PROVIDERS, type ProviderDefinition } from './domain/providers.ts';
import { checkoutStream } from './adapters/checkout-stream.ts';
import { consumeCustomerErasures } from './api/consumers/customer-erasure.ts';
import { consumeSettlementVerdicts } from './api/consumers/settlement-verdicts.ts';
import { startExpirySweeper } from './jobs/sweeper.ts';
import { CheckoutSessionStore } from './store/checkout-sessions.ts';
import { CheckoutStore } from './store/checkouts.ts';
import { createCheckoutDatabase } from './store/prisma.ts';
import type { CheckoutDependencies } from './use-cases/dependencies.ts';

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
 * Wires config → database → NATS (outbox relay, erasure and verdict consumers) → settlement and gateway
 * clients → gRPC server → sweeper.
 * Used by main.ts and by tests (with a test clock).
 */
export async function startCheckoutService(
  config: CheckoutConfig,
  logger: Logger,
  options: CheckoutOptions = {},
): Promise<RunningCheckoutService> {
  const database = createCheckoutDatabase(config.CHECKOUT_DATABASE_URL);
  const { prisma } = database;
  await prisma.$connect();
  const providers = options.providers ?? DEFAULT_PROVIDERS;
  const settlement = createServiceClient(SettlementService, config.SETTLEMENT_GRPC_ADDRESS, { timeoutMs: config.SETTLEMENT_TIMEOUT_MS });
  // The gateway owns accounts: the buyer's side reads wallet, fee and status there (docs/adr/0037).
  const accountsClient = createServiceClient(MerchantAdminService, config.ACCOUNTS_GRPC_ADDRESS, { timeoutMs: config.ACCOUNTS_TIMEOUT_MS });
  // A sale's many buyers of one merchant: their views read its account once per round trip, each
  // read still started after the view asked (docs/adr/0097).
  const accounts = { ...accountsClient, getAccount: sharedAccountReads(accountsClient) };
  const deps: CheckoutDependencies = {
    sessions: new CheckoutSessionStore(database, { publicBaseUrl: config.PUBLIC_BASE_URL, providers }),
    checkouts: new CheckoutStore(prisma),
    settlement,
    accounts,
    providers,
    now: options.now ?? (() => new Date()),
    publicBaseUrl: config.PUBLIC_BASE_URL,
  };

  const nats = await connectNats(config.NATS_URL, 'checkout');
  const stream = checkoutStream(config.NATS_SUBJECT_PREFIX, config);
  await ensureStream(nats, stream);
  const relay = await startOutboxRelay({
    databaseUrl: config.CHECKOUT_DATABASE_URL,
    nats,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    logger,
  });

  const eventsPosition = outboxPosition({ databaseUrl: config.CHECKOUT_DATABASE_URL, nats, stream: stream.name, relay });

  const erasures = await consumeCustomerErasures(nats, config.NATS_SUBJECT_PREFIX, deps, config, logger);
  const purges = startPurgeSchedule(eventTablePurges(config.CHECKOUT_DATABASE_URL, config), config.EVENTS_PURGE_INTERVAL_MS, logger);
  const verdicts = await consumeSettlementVerdicts(nats, config.NATS_SUBJECT_PREFIX, deps, config, logger);

  const server = createGrpcServer(logger);
  server.add(CheckoutService, checkoutHandlers(deps, eventsPosition, logger));
  // Operator CLI and dashboard only; the gateway's merchant API never calls it (ADR 0024).
  server.add(CheckoutAdminService, adminHandlers(deps));
  server.addPublic(HostedCheckoutService, hostedHandlers(deps));
  const address = await server.listenAt(config.CHECKOUT_GRPC_ADDRESS);
  const sweeper = startExpirySweeper(deps, logger, config.EXPIRY_SWEEP_INTERVAL_MS);
  return {
    address,
    deps,
    async stop() {
      await server.stop();
      await sweeper.stop();
      await erasures.stop();
      await verdicts.stop();
      await purges.stop();
      await relay.stop();
      await eventsPosition.close();
      await nats.drain();
      settlement.close();
      accountsClient.close();
      await database.close();
    },
  };
}
