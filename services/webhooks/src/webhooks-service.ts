import { connectNats, contextStream, ensureStream, eventTablePurges, observeQueue, startOutboxRelay, startPurgeSchedule } from '@hc/events';
import { createGrpcServer } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { secretBoxFromEnv } from '@hc/secrets';
import { webhooksHandlers } from './api/grpc/webhooks-handlers.ts';
import { deliverySettings, type WebhooksConfig } from './config.ts';
import { startDeliveryWorker } from './jobs/delivery-worker.ts';
import { systemResolver, type HostResolver } from './adapters/target-resolver.ts';
import { startConsumers } from './api/consumers/consumers.ts';
import { CheckLimits } from './store/check-limits.ts';
import { DeliveryStore } from './store/deliveries.ts';
import { DeliveryLogRetention } from './store/delivery-log-retention.ts';
import { EndpointStore } from './store/endpoints.ts';
import { ErasureStore } from './store/erasures.ts';
import { EventStore } from './store/events.ts';
import { createWebhooksPrisma } from './store/prisma.ts';
import type { WebhooksDependencies } from './use-cases/dependencies.ts';

export interface RunningWebhooksService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  /** The wired use-case dependencies (tests read and drive through them). */
  readonly deps: WebhooksDependencies;
  stop(): Promise<void>;
}

export interface WebhooksOptions {
  now?: () => Date;
  /** How endpoint host names are resolved, at registration and at delivery (tests make names resolve where they like). */
  resolver?: HostResolver;
  /** Extra trusted CA certificates (PEM) for https endpoints (tests: a self-signed receiver). */
  ca?: string;
}

/**
 * Wires config → encryption keys → database (signing secrets not yet sealed with the current key are
 * re-encrypted first) → NATS consumers (payment events, erasures) → delivery worker → outbox relay
 * (endpoint alerts) → gRPC server.
 * Used by main.ts and by tests.
 */
export async function startWebhooksService(
  config: WebhooksConfig,
  logger: Logger,
  options: WebhooksOptions = {},
): Promise<RunningWebhooksService> {
  const settings = deliverySettings(config);
  // No key, no start: signing secrets are never stored in plaintext (docs/adr/0042).
  const box = secretBoxFromEnv(config.SECRETS_ENCRYPTION_KEYS);
  const prisma = createWebhooksPrisma(config.WEBHOOKS_DATABASE_URL);
  await prisma.$connect();
  const now = options.now ?? (() => new Date());
  const resolver = options.resolver ?? systemResolver;
  const endpoints = new EndpointStore(prisma, box);
  try {
    // Plaintext rows from before encryption, and rows under an older key after a key rotation.
    const { resealed } = await endpoints.secrets.reseal();
    if (resealed > 0) logger.info({ resealed, keyId: box.currentKeyId }, 'signing secrets re-encrypted with the current key');
  } catch (error) {
    await prisma.$disconnect();
    throw error;
  }
  const deliveries = new DeliveryStore(prisma);
  const worker = startDeliveryWorker({ deliveries, endpoints, settings, resolver, now, logger, ca: options.ca });
  // The webhook backlog for the chart's alerts (docs/operations.md): read only when metrics are collected.
  const stopObserving = observeQueue('webhooks.deliveries', () => deliveries.backlog());
  const deps: WebhooksDependencies = {
    endpoints,
    events: new EventStore(prisma),
    deliveries,
    erasures: new ErasureStore(prisma),
    settings,
    resolver,
    checkLimits: new CheckLimits(prisma),
    ca: options.ca,
    now,
    wakeWorker: () => worker.wake(),
  };

  const nats = await connectNats(config.NATS_URL, 'webhooks');
  // Endpoint alerts (docs/adr/0049) leave through this context's outbox onto its own stream.
  await ensureStream(nats, contextStream(config.NATS_SUBJECT_PREFIX, 'webhooks', config));
  const relay = await startOutboxRelay({
    databaseUrl: config.WEBHOOKS_DATABASE_URL,
    nats,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    logger,
  });
  const consumers = await startConsumers(nats, config.NATS_SUBJECT_PREFIX, config, deps, logger);
  const log = new DeliveryLogRetention(prisma);
  const purges = startPurgeSchedule(
    [
      { name: 'webhook_delivery_log', run: () => log.purge(settings.logRetentionMs) },
      ...eventTablePurges(config.WEBHOOKS_DATABASE_URL, config),
    ],
    config.EVENTS_PURGE_INTERVAL_MS,
    logger,
  );

  const server = createGrpcServer(logger);
  server.add(WebhooksService, webhooksHandlers(deps));
  const address = await server.listenAt(config.WEBHOOKS_GRPC_ADDRESS);
  return {
    address,
    deps,
    async stop() {
      await server.stop();
      await Promise.all(consumers.map((c) => c.stop()));
      stopObserving();
      await worker.stop();
      await relay.stop();
      await purges.stop();
      await nats.drain();
      await prisma.$disconnect();
    },
  };
}
