import { contextStream, eventTablePurges, observeQueue, startPurgeSchedule } from '@hc/events';
import { numbered, startService } from '@hc/runtime/service';
import type { Logger } from '@hc/logging';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { secretBoxFromEnv } from '@hc/secrets';
import { webhooksHandlers } from './api/grpc/webhooks-handlers.ts';
import { deliverySettings, type WebhooksConfig } from './config.ts';
import { startDeliveryWorker, type DeliveryWorker } from './jobs/delivery-worker.ts';
import { DeliveryConnections } from './adapters/delivery-connections.ts';
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
 * Webhooks on the service skeleton (@hc/runtime/service, docs/adr/0095): encryption keys → database
 * (signing secrets not yet sealed with the current key are re-encrypted first) → NATS (its stream, the
 * outbox relay for endpoint alerts) → delivery worker and purges → consumers (payment events,
 * erasures) → gRPC. Used by main.ts and by tests.
 */
export async function startWebhooksService(
  config: WebhooksConfig,
  logger: Logger,
  options: WebhooksOptions = {},
): Promise<RunningWebhooksService> {
  const settings = deliverySettings(config);
  // No key, no start: signing secrets are never stored in plaintext (docs/adr/0042).
  const box = secretBoxFromEnv(config.SECRETS_ENCRYPTION_KEYS);
  const now = options.now ?? (() => new Date());
  const resolver = options.resolver ?? systemResolver;
  // Started with the jobs, woken by the consumers and handlers, which start after it.
  let worker: DeliveryWorker | undefined;
  const service = await startService({
    name: 'webhooks',
    logger,
    database: {
      open: async () => {
        const prisma = createWebhooksPrisma(config.WEBHOOKS_DATABASE_URL);
        await prisma.$connect();
        return prisma;
      },
      close: (prisma) => prisma.$disconnect(),
    },
    dependencies: async (prisma, life): Promise<WebhooksDependencies> => {
      const endpoints = new EndpointStore(prisma, box);
      // Plaintext rows from before encryption, and rows under an older key after a key rotation.
      const { resealed } = await endpoints.secrets.reseal();
      if (resealed > 0) logger.info({ resealed, keyId: box.currentKeyId }, 'signing secrets re-encrypted with the current key');
      return {
        endpoints,
        events: new EventStore(prisma),
        deliveries: new DeliveryStore(prisma),
        erasures: new ErasureStore(prisma),
        settings,
        resolver,
        checkLimits: new CheckLimits(prisma),
        ca: options.ca,
        // Closed after the worker stopped (parts stop in reverse).
        connections: life.own('delivery connections', new DeliveryConnections(), (connections) => connections.close()),
        now,
        wakeWorker: () => worker?.wake(),
      };
    },
    events: {
      natsUrl: config.NATS_URL,
      // Endpoint alerts (docs/adr/0049) leave through this context's outbox onto its own stream.
      streams: [contextStream(config.NATS_SUBJECT_PREFIX, 'webhooks', config)],
      relay: { databaseUrl: config.WEBHOOKS_DATABASE_URL, subjectPrefix: config.NATS_SUBJECT_PREFIX },
    },
    jobs: ({ database: prisma, deps: { deliveries, endpoints, connections } }) => {
      worker = startDeliveryWorker({ deliveries, endpoints, settings, resolver, now, logger, ca: options.ca, connections });
      const log = new DeliveryLogRetention(prisma);
      const purgeJobs = [
        { name: 'webhook_delivery_log', run: () => log.purge(settings.logRetentionMs) },
        ...eventTablePurges(config.WEBHOOKS_DATABASE_URL, config),
      ];
      return {
        purges: startPurgeSchedule(purgeJobs, config.EVENTS_PURGE_INTERVAL_MS, logger),
        worker,
        // The webhook backlog for the chart's alerts (docs/operations.md): read only when metrics are collected.
        backlogMetric: { stop: observeQueue('webhooks.deliveries', () => deliveries.backlog()) },
      };
    },
    consumers: async ({ nats, deps }) => numbered('events', await startConsumers(nats, config.NATS_SUBJECT_PREFIX, config, deps, logger)),
    grpc: {
      address: config.WEBHOOKS_GRPC_ADDRESS,
      register: (server, { deps }) => server.add(WebhooksService, webhooksHandlers(deps)),
    },
  });
  return { address: service.address!, deps: service.deps, stop: () => service.stop() };
}
