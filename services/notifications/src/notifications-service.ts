import { connectNats, observeQueue, processedMessagesPurge, startPurgeSchedule } from '@hc/events';
import { createGrpcServer } from '@hc/grpc';
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
import { startMailWorker } from './jobs/mail-worker.ts';
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
 * Wires config → database → templates → mail worker (SMTP) → NATS consumers (payment events,
 * erasures) → gRPC server (settings and mail log for the dashboard, the receipt policy for the
 * pages). Used by main.ts and by tests.
 */
export async function startNotificationsService(
  config: NotificationsConfig,
  logger: Logger,
  options: NotificationsOptions = {},
): Promise<RunningNotificationsService> {
  const database = createNotificationsDatabase(config.NOTIFICATIONS_DATABASE_URL);
  const mails = new MailStore(config.MAIL_FROM);
  const sql = new NotificationsSql(database.pool);
  const keys = config.SECRETS_ENCRYPTION_KEYS?.trim();
  const links = keys ? secretBoxFromEnv(keys) : null;
  const worker = startMailWorker({
    sql,
    mails,
    sender: options.sender ?? smtpSender(config),
    settings: {
      from: config.MAIL_FROM,
      concurrency: config.MAIL_CONCURRENCY,
      leaseMs: config.MAIL_LEASE_MS,
      pollIntervalMs: config.MAIL_POLL_INTERVAL_MS,
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      retryBaseMs: config.MAIL_RETRY_BASE_MS,
      retryMaxMs: config.MAIL_RETRY_MAX_MS,
    },
    links,
    logger,
  });
  // The mail queue for the chart's alerts (docs/operations.md): read only when metrics are collected.
  const stopObserving = observeQueue('notifications.mails', () => mails.backlog(sql.pool));
  const deps: NotificationsDependencies = {
    sql,
    settings: new SettingsStore(),
    mails,
    templates: mailTemplates(),
    brands: accountBrands(config.ACCOUNTS_GRPC_ADDRESS, config.PUBLIC_BASE_URL, logger),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    links,
    testReceipts: {
      accountUsers: dashboardAccountUsers(config.DASHBOARD_GRPC_ADDRESS),
      perAccountHour: config.TEST_RECEIPTS_PER_ACCOUNT_HOUR,
      toAnyAddress: config.TEST_RECEIPTS_TO_ANY_ADDRESS,
    },
    wakeWorker: () => worker.wake(),
  };

  const nats = await connectNats(config.NATS_URL, 'notifications');
  const consumers = await startConsumers(nats, config.NATS_SUBJECT_PREFIX, config, config.NOTIFICATIONS_EVENT_ACK_WAIT_MS, deps, logger);
  const purges = startPurgeSchedule(
    [processedMessagesPurge(config.NOTIFICATIONS_DATABASE_URL, config)],
    config.EVENTS_PURGE_INTERVAL_MS,
    logger,
  );

  const server = createGrpcServer(logger);
  server.add(NotificationsService, notificationsHandlers(deps));
  server.addPublic(ReceiptPolicyService, receiptPolicyHandlers(deps));
  const address = await server.listenAt(config.NOTIFICATIONS_GRPC_ADDRESS);
  return {
    address,
    deps,
    async stop() {
      await server.stop();
      await Promise.all(consumers.map((c) => c.stop()));
      stopObserving();
      await worker.stop();
      await purges.stop();
      await nats.drain();
      deps.testReceipts.accountUsers.close();
      deps.brands.close();
      await database.close();
    },
  };
}
