import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { checkGrpcHealth, createServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';

import type { GatewayConfig } from './config.ts';
import { createGatewayApp } from './http/app.ts';
import { MerchantStore } from './store/merchant-store.ts';
import { createGatewayPrisma } from './store/prisma.ts';

export interface RunningGateway {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  stop(): Promise<void>;
}

/** Wires config → database → gRPC clients → HTTP server. Used by main.ts and by tests. */
export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  const prisma = createGatewayPrisma(config.GATEWAY_DATABASE_URL);
  await prisma.$connect();
  const checkout = createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS });
  const app = createGatewayApp({
    merchants: new MerchantStore(prisma),
    checkout,
    logger,
    ready: async () => {
      await prisma.$queryRaw`SELECT 1`;
      await checkGrpcHealth(config.CHECKOUT_GRPC_ADDRESS);
    },
  });
  const server: Server = createServer(app);
  // Slow-client protection: a request must arrive whole within 30 s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.GATEWAY_PORT, config.GATEWAY_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.GATEWAY_HOST}:${port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      checkout.close();
      await prisma.$disconnect();
    },
  };
}
