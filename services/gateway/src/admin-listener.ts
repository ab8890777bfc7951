import { createGrpcServer, type GrpcServer } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { MerchantAdminService } from '@hc/proto/gateway/v1';
import { merchantAdminHandlers } from './api/grpc/merchant-admin-handlers.ts';
import type { MerchantStore } from './store/merchant-store.ts';

export interface AdminListener {
  readonly server: GrpcServer;
  /** host:port it listens on (the port chosen when the address asked for port 0). */
  readonly address: string;
}

/**
 * The internal admin listener (docs/adr/0028): its own gRPC server on its own address, so the public
 * HTTP listener never serves account or key administration. Its callers are the dashboard and
 * checkout, which reads the account's current wallet, fee and status when a buyer pays
 * (docs/adr/0037). Reads go to the store, not the key cache: the dashboard must see a key it just
 * made, and a buyer's payment must lock the wallet the merchant set last.
 */
export async function startAdminListener(address: string, store: MerchantStore, now: () => Date, logger: Logger): Promise<AdminListener> {
  const server = createGrpcServer(logger);
  server.add(MerchantAdminService, merchantAdminHandlers({ store, now }));
  return { server, address: await server.listenAt(address) };
}
