import { createGrpcServer } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { checkoutHandlers } from './api/checkout-handlers.ts';
import type { CheckoutConfig } from './config.ts';
import { CheckoutSessionStore } from './store/checkout-sessions.ts';
import { createCheckoutPrisma } from './store/prisma.ts';

export interface RunningCheckoutService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  stop(): Promise<void>;
}

/** Wires config → database → gRPC server. Used by main.ts and by tests (with a test clock). */
export async function startCheckoutService(
  config: CheckoutConfig,
  logger: Logger,
  options: { now?: () => Date } = {},
): Promise<RunningCheckoutService> {
  const prisma = createCheckoutPrisma(config.CHECKOUT_DATABASE_URL);
  await prisma.$connect();
  const deps = {
    sessions: new CheckoutSessionStore(prisma),
    now: options.now ?? (() => new Date()),
    publicBaseUrl: config.PUBLIC_BASE_URL,
  };
  const server = createGrpcServer(logger);
  server.add(CheckoutService, checkoutHandlers(deps));
  const port = await server.listen(config.CHECKOUT_GRPC_ADDRESS);
  const host = config.CHECKOUT_GRPC_ADDRESS.slice(0, config.CHECKOUT_GRPC_ADDRESS.lastIndexOf(':'));
  return {
    address: `${host}:${port}`,
    async stop() {
      await server.stop();
      await prisma.$disconnect();
    },
  };
}
