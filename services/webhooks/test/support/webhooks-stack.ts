import type { Logger } from '@hc/logging';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { loadWebhooksConfig, type WebhooksConfig } from '../../src/config.ts';
import { WEBHOOKS_MIGRATIONS_DIR } from '../../src/migrations.ts';
import { startWebhooksService, type RunningWebhooksService, type WebhooksOptions } from '../../src/webhooks-service.ts';
import { createWebhooksPrisma, type WebhooksPrisma } from '../../src/store/prisma.ts';

/** Settings that keep the suite fast: a shortened retry schedule, short timeouts and leases, private targets allowed. */
export const FAST_DELIVERY: Record<string, string> = {
  WEBHOOKS_RETRY_SCHEDULE: '0s,100ms,100ms,100ms',
  WEBHOOKS_DELIVERY_TIMEOUT: '500ms',
  WEBHOOKS_LEASE: '2s',
  WEBHOOKS_POLL_INTERVAL: '50ms',
  // Events a killed process had pulled come back after this (crash tests).
  WEBHOOKS_EVENT_ACK_WAIT: '1s',
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  LOG_LEVEL: 'silent',
};

export interface WebhooksStack {
  readonly service: RunningWebhooksService;
  readonly client: ServiceClient<typeof WebhooksService>;
  readonly config: WebhooksConfig;
  /** Direct database access for assertions on stored state. */
  readonly prisma: WebhooksPrisma;
  readonly database: TestDatabase;
  stop(): Promise<void>;
}

/** The webhooks service on a database of its own, reading events under `natsPrefix`. */
export async function startWebhooksStack(
  logger: Logger,
  natsPrefix: string,
  env: Record<string, string> = {},
  options: WebhooksOptions & { natsUrl?: string } = {},
): Promise<WebhooksStack> {
  const database = await createTestDatabase('webhooks', WEBHOOKS_MIGRATIONS_DIR);
  const config = loadWebhooksConfig({
    ...FAST_DELIVERY,
    WEBHOOKS_DATABASE_URL: database.url,
    WEBHOOKS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: options.natsUrl ?? testNatsUrl(),
    NATS_SUBJECT_PREFIX: natsPrefix,
    SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
    ...env,
  });
  const service = await startWebhooksService(config, logger, options);
  const client = createServiceClient(WebhooksService, service.address);
  const prisma = createWebhooksPrisma(database.url);
  return {
    service,
    client,
    config,
    prisma,
    database,
    async stop() {
      client.close();
      await service.stop();
      await prisma.$disconnect();
      await database.drop();
    },
  };
}

export const testScope = (accountId: string, livemode = false): CallContext => ({ accountId, livemode, requestId: 'req_test' });
