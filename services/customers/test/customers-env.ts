/**
 * The customers service with everything it talks to real: the checkout stack (checkout + settlement
 * + a NATS stream of the test file's own) producing the events, and a database of its own. Tests
 * drive checkout over gRPC and read customers over gRPC, as the gateway would.
 */
import { startCheckoutStack, type CheckoutStack } from '@hc/checkout/testing';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { CheckoutService, type CreateCheckoutSessionRequestSchema } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { loadCustomersConfig, type CustomersConfig } from '../src/config.ts';
import { startCustomersService, type RunningCustomersService } from '../src/customers-service.ts';
import { CUSTOMERS_MIGRATIONS_DIR } from '../src/migrations.ts';

export const ACCOUNT_SNAPSHOT = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };

/** A create request; the account snapshot (payout wallet, fee) is added. */
export type SessionRequest = Omit<MessageInitShape<typeof CreateCheckoutSessionRequestSchema>, 'account' | '$typeName'>;

export interface CustomersEnv {
  readonly stack: CheckoutStack;
  readonly checkout: ServiceClient<typeof CheckoutService>;
  readonly databaseUrl: string;
  /** The client of the running customers service (a new one after restart()). */
  customers(): ServiceClient<typeof CustomersService>;
  /** Stops the customers service (gRPC, consumer, relay) and starts it again on the same database and stream. */
  restart(): Promise<void>;
  stopService(): Promise<void>;
  startService(): Promise<void>;
  /** Creates a Test or Live session; returns its pay_ id. */
  createSession(ctx: CallContext, request?: SessionRequest): Promise<string>;
  stop(): Promise<void>;
}

export async function startCustomersEnv(logger: Logger, label: string): Promise<CustomersEnv> {
  const stack = await startCheckoutStack(logger, { label });
  const db: TestDatabase = await createTestDatabase('customers', CUSTOMERS_MIGRATIONS_DIR);
  const config: CustomersConfig = loadCustomersConfig({
    CUSTOMERS_DATABASE_URL: db.url,
    CUSTOMERS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: stack.natsUrl,
    NATS_SUBJECT_PREFIX: stack.natsPrefix,
    LOG_LEVEL: 'silent',
  });
  const checkout = createServiceClient(CheckoutService, stack.checkout.address);
  let service: RunningCustomersService | undefined;
  let client: ServiceClient<typeof CustomersService> | undefined;

  const env: CustomersEnv = {
    stack,
    checkout,
    databaseUrl: db.url,
    customers() {
      if (!client) throw new Error('the customers service is stopped');
      return client;
    },
    async startService() {
      // A short ack wait: messages a stopped service had pulled but not handled come back quickly.
      service = await startCustomersService(config, logger, { ackWaitMs: 2_000 });
      client = createServiceClient(CustomersService, service.address);
    },
    async stopService() {
      client?.close();
      client = undefined;
      await service?.stop();
      service = undefined;
    },
    async restart() {
      await env.stopService();
      await env.startService();
    },
    async createSession(ctx, request = { amount: '40.00', currency: 'EUR', description: 'Lamp' }) {
      const { payment } = await checkout.createCheckoutSession({ ...request, account: ACCOUNT_SNAPSHOT }, ctx);
      return payment!.id;
    },
    async stop() {
      await env.stopService();
      checkout.close();
      await stack.stop();
      await db.drop();
    },
  };
  await env.startService();
  return env;
}

export { eventually } from '@hc/test-kit';
