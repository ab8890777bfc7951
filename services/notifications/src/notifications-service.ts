import { observeQueue, processedMessagesPurge, startPurgeSchedule } from '@hc/events';
import { numbered, startService } from '@hc/runtime/service';
import type { Logger } from '@hc/logging';
import { NotificationsService, ReceiptPolicyService } from '@hc/proto/notifications/v1';
import { secretBoxFromEnv } from '@hc/secrets';
import { accountBrands } from './adapters/account-brands.ts';
import { dashboardAccountUsers } from './adapters/account-users.ts';
import { smtpSender, type MailSender } from './adapters/smtp-sender.ts';
import { mailTemplates } from './adapters/templates.ts';
import { startConsumers } from './api/consumers/consumers.ts';
import { notificationsHandlers, receiptPolicyHandlers } from './api/grpc/notifications-handlers.ts';
import type { NotificationsConfig } from './config.ts';
import { startMailWorker, type MailWorker, type MailWorkerSettings } from './jobs/mail-worker.ts';
import { createNotificationsDatabase, NotificationsSql } from './store/database.ts';
import { MailStore } from './store/mail-store.ts';
import { SettingsStore } from './store/settings-store.ts';
import type { NotificationsDependencies } from './use-cases/dependencies.ts';

export interface RunningNotificationsService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  readonly deps: NotificationsDependencies;
  stop(): Promise<void>;
}

export interface NotificationsOptions {
  /** Another way to hand mails over (tests of SMTP failures use a real server that refuses). */
  sender?: MailSender;
}

/**
 * Notifications on the service skeleton (@hc/runtime/service, docs/adr/0095): database → dependencies
 * (templates, the dashboard's account users client) → NATS → mail worker (SMTP) and purges → consumers
 * (payment events, erasures) → gRPC (settings and mail log for the dashboard, the receipt policy for
 * the pages). Used by main.ts and by tests.
 */
export async function startNotificationsService(
  config: NotificationsConfig,
  logger: Logger,
  options: NotificationsOptions = {},
): Promise<RunningNotificationsService> {
  const keys = config.SECRETS_ENCRYPTION_KEYS?.trim();
  const links = keys ? secretBoxFromEnv(keys) : null;
  // Started with the jobs, woken by the consumers and handlers, which start after it.
  let worker: MailWorker | undefined;
  const service = await startService({
    name: 'notifications',
    logger,
    database: {
      open: async () => createNotificationsDatabase(config.NOTIFICATIONS_DATABASE_URL),
      close: (database) => database.close(),
    },
    dependencies: (database, life): NotificationsDependencies => ({
      sql: new NotificationsSql(database.pool),
      settings: new SettingsStore(),
      mails: new MailStore(config.MAIL_FROM),
      templates: mailTemplates(),
      brands: life.own('accounts client', accountBrands(config.ACCOUNTS_GRPC_ADDRESS, config.PUBLIC_BASE_URL, logger), (client) =>
        client.close(),
      ),
      publicBaseUrl: config.PUBLIC_BASE_URL,
      links,
      testReceipts: {
        accountUsers: life.own('dashboard client', dashboardAccountUsers(config.DASHBOARD_GRPC_ADDRESS), (client) => client.close()),
        perAccountHour: config.TEST_RECEIPTS_PER_ACCOUNT_HOUR,
        toAnyAddress: config.TEST_RECEIPTS_TO_ANY_ADDRESS,
      },
      wakeWorker: () => worker?.wake(),
    }),
    events: { natsUrl: config.NATS_URL },
    jobs: ({ deps: { sql, mails } }) => {
      worker = startMailWorker({ sql, mails, sender: options.sender ?? smtpSender(config), settings: mailSettings(config), links, logger });
      return {
        worker,
        // The mail queue for the chart's alerts (docs/operations.md): read only when metrics are collected.
        backlogMetric: { stop: observeQueue('notifications.mails', () => mails.backlog(sql.pool)) },
        purges: startPurgeSchedule(
          [processedMessagesPurge(config.NOTIFICATIONS_DATABASE_URL, config)],
          config.EVENTS_PURGE_INTERVAL_MS,
          logger,
        ),
      };
    },
    consumers: async ({ nats, deps }) =>
      numbered(
        'events',
        await startConsumers(nats, config.NATS_SUBJECT_PREFIX, config, config.NOTIFICATIONS_EVENT_ACK_WAIT_MS, deps, logger),
      ),
    grpc: {
      address: config.NOTIFICATIONS_GRPC_ADDRESS,
      register(server, { deps }) {
        server.add(NotificationsService, notificationsHandlers(deps));
        server.addPublic(ReceiptPolicyService, receiptPolicyHandlers(deps));
      },
    },
  });
  return { address: service.address!, deps: service.deps, stop: () => service.stop() };
}

function mailSettings(config: NotificationsConfig): MailWorkerSettings {
  return {
    from: config.MAIL_FROM,
    concurrency: config.MAIL_CONCURRENCY,
    leaseMs: config.MAIL_LEASE_MS,
    pollIntervalMs: config.MAIL_POLL_INTERVAL_MS,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    retryMaxMs: config.MAIL_RETRY_MAX_MS,
  };
}
