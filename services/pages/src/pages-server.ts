import { checkGrpcHealth, createServiceClient, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { HostedCheckoutService } from '@hc/proto/checkout/v1';
import { ReceiptPolicyService } from '@hc/proto/notifications/v1';
import { BrandService } from '@hc/proto/accounts/v1';
import type { ServiceLife } from '@hc/runtime';
import { startService } from '@hc/runtime/service';
import { listenHttp } from '@hc/web';
import type { PagesConfig } from './config.ts';
import { receiptPolicy, RECEIPT_POLICY_TIMEOUT_MS } from './adapters/receipt-policy.ts';
import { BRAND_TIMEOUT_MS, brandReader, logoReader } from './adapters/brand-reader.ts';
import { groupedHostedClient } from './adapters/grouped-hosted-client.ts';
import { createPagesApp } from './api/http/app.ts';

export interface RunningPages {
  /** Base URL, e.g. http://127.0.0.1:8081 */
  readonly url: string;
  stop(): Promise<void>;
}

/** The clients of the services the pages read; the receipt policy and brands are optional. */
interface PagesClients {
  readonly checkout: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;
  readonly policy: ServiceClient<typeof ReceiptPolicyService, PublicCallContext> | undefined;
  readonly accounts: ServiceClient<typeof BrandService, PublicCallContext> | undefined;
}

/**
 * The hosted pages on the service skeleton (@hc/runtime/service, docs/adr/0095). No database of their
 * own (every page reads checkout, accounts, notifications over gRPC): dependencies (the gRPC clients)
 * → the HTTP listener. Stops in reverse: the listener first, then the clients. Used by main.ts and by tests.
 */
export async function startPages(config: PagesConfig, logger: Logger): Promise<RunningPages> {
  const service = await startService({
    name: 'pages',
    logger,
    dependencies: (_database, life) => pagesClients(config, life, logger),
    listeners: async ({ deps }) => ({ http: await listenPages(config, deps, logger) }),
  });
  return { url: service.listeners.http.url, stop: () => service.stop() };
}

/** Each client is owned as it is made, so a start that fails later still closes it. */
function pagesClients(config: PagesConfig, life: ServiceLife, logger: Logger): PagesClients {
  const close = (client: { close(): void }): void => client.close();
  const checkout = life.own(
    'checkout client',
    createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, config.CHECKOUT_GRPC_ADDRESS, {
      timeoutMs: config.GRPC_TIMEOUT_MS,
    }),
    close,
  );
  const policy = config.NOTIFICATIONS_GRPC_ADDRESS
    ? life.own(
        'receipt policy client',
        createServiceClient<typeof ReceiptPolicyService, PublicCallContext>(ReceiptPolicyService, config.NOTIFICATIONS_GRPC_ADDRESS, {
          timeoutMs: RECEIPT_POLICY_TIMEOUT_MS,
        }),
        close,
      )
    : undefined;
  const accounts = config.ACCOUNTS_GRPC_ADDRESS
    ? life.own(
        'brand client',
        createServiceClient<typeof BrandService, PublicCallContext>(BrandService, config.ACCOUNTS_GRPC_ADDRESS, {
          timeoutMs: BRAND_TIMEOUT_MS,
        }),
        close,
      )
    : undefined;
  // The buyers' views go out grouped (docs/batching.md), each within GRPC_TIMEOUT_MS of when it was
  // asked; the client closed is the same underneath.
  return { checkout: groupedHostedClient(checkout, config.GRPC_TIMEOUT_MS, logger), policy, accounts };
}

function listenPages(config: PagesConfig, clients: PagesClients, logger: Logger): ReturnType<typeof listenHttp> {
  const app = createPagesApp({
    checkout: clients.checkout,
    receipts: receiptPolicy(clients.policy, logger),
    brands: brandReader(clients.accounts, logger),
    logos: logoReader(clients.accounts),
    logger,
    trustProxyHops: config.PAGES_TRUST_PROXY_HOPS,
    viewsPerMinute: config.PAGES_VIEWS_PER_MINUTE,
    actionsPerMinute: config.PAGES_ACTIONS_PER_MINUTE,
    statementPublicKeys: config.STATEMENT_PUBLIC_KEYSET,
    ready: () => checkGrpcHealth(config.CHECKOUT_GRPC_ADDRESS),
  });
  // Slow-client protection (the whole request within 30 s, its headers within 10 s) is listenHttp's default.
  return listenHttp(app, { host: config.PAGES_HOST, port: config.PAGES_PORT, logger, refusals: 'page' });
}
