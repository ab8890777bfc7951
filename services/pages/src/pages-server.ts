import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { checkGrpcHealth, createServiceClient, type PublicCallContext } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { HostedCheckoutService } from '@hc/proto/checkout/v1';
import { ReceiptPolicyService } from '@hc/proto/notifications/v1';
import { BrandService } from '@hc/proto/accounts/v1';
import { answerParserRefusals } from '@hc/web';
import type { PagesConfig } from './config.ts';
import { receiptPolicy, RECEIPT_POLICY_TIMEOUT_MS } from './adapters/receipt-policy.ts';
import { BRAND_TIMEOUT_MS, brandReader, logoReader } from './adapters/brand-reader.ts';
import { createPagesApp } from './api/http/app.ts';

export interface RunningPages {
  /** Base URL, e.g. http://127.0.0.1:8081 */
  readonly url: string;
  stop(): Promise<void>;
}

/** Wires config → checkout gRPC client → HTTP server. Used by main.ts and by tests. */
export async function startPages(config: PagesConfig, logger: Logger): Promise<RunningPages> {
  const checkout = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(
    HostedCheckoutService,
    config.CHECKOUT_GRPC_ADDRESS,
    {
      timeoutMs: config.GRPC_TIMEOUT_MS,
    },
  );
  const policy = config.NOTIFICATIONS_GRPC_ADDRESS
    ? createServiceClient<typeof ReceiptPolicyService, PublicCallContext>(ReceiptPolicyService, config.NOTIFICATIONS_GRPC_ADDRESS, {
        timeoutMs: RECEIPT_POLICY_TIMEOUT_MS,
      })
    : undefined;
  const accounts = config.ACCOUNTS_GRPC_ADDRESS
    ? createServiceClient<typeof BrandService, PublicCallContext>(BrandService, config.ACCOUNTS_GRPC_ADDRESS, {
        timeoutMs: BRAND_TIMEOUT_MS,
      })
    : undefined;
  const app = createPagesApp({
    checkout,
    receipts: receiptPolicy(policy, logger),
    brands: brandReader(accounts, logger),
    logos: logoReader(accounts),
    logger,
    trustProxyHops: config.PAGES_TRUST_PROXY_HOPS,
    viewsPerMinute: config.PAGES_VIEWS_PER_MINUTE,
    actionsPerMinute: config.PAGES_ACTIONS_PER_MINUTE,
    statementPublicKeys: config.STATEMENT_PUBLIC_KEYSET,
    ready: () => checkGrpcHealth(config.CHECKOUT_GRPC_ADDRESS),
  });
  const server = createServer(app);
  answerParserRefusals(server, logger, 'page');
  // Slow-client protection: a request must arrive whole within 30 s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PAGES_PORT, config.PAGES_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.PAGES_HOST}:${port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      checkout.close();
      policy?.close();
      accounts?.close();
    },
  };
}
