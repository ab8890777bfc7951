import { jetstream } from '@nats-io/jetstream';
import { connectNats, contextStream, ensureStream, DEFAULT_EVENT_RETENTION, prefixedSubject, type NatsConnection } from '@hc/events';
import {
  buildEvent,
  checkoutEventSubject,
  CUSTOMER_ERASED,
  CUSTOMER_ERASED_SUBJECT,
  encodeEvent,
  ENDPOINT_ALERT,
  endpointAlertSubject,
  PAYMENT_EVENT,
  type EndpointAlertType,
  type PaymentEventType,
} from '@hc/events/contracts';
import { EndpointAlertSchema } from '@hc/proto/webhooks/v1/events';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { PaymentEventSchema } from '@hc/proto/checkout/v1/events';
import { CustomerErasedSchema } from '@hc/proto/customers/v1/events';
import { NotificationsService, ReceiptPolicyService } from '@hc/proto/notifications/v1';
import { createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, testNatsUrl, type TestDatabase, openTestPool } from '@hc/test-kit';
import type { MailSink } from '@hc/test-kit/mail';
import type pg from 'pg';
import { loadNotificationsConfig, type NotificationsConfig } from '../../src/config.ts';
import { NOTIFICATIONS_MIGRATIONS_DIR } from '../../src/migrations.ts';
import { startNotificationsService, type RunningNotificationsService } from '../../src/notifications-service.ts';

/** Fast retries and leases, plain SMTP to the sink. */
export function fastEnv(sink: MailSink, natsPrefix: string, databaseUrl: string): Record<string, string> {
  return {
    NOTIFICATIONS_DATABASE_URL: databaseUrl,
    NOTIFICATIONS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: natsPrefix,
    SMTP_HOST: sink.host,
    SMTP_PORT: String(sink.port),
    SMTP_SECURITY: 'none',
    MAIL_FROM: 'receipts@pay.example',
    PUBLIC_BASE_URL: 'https://pay.example',
    SMTP_TIMEOUT_MS: '2000',
    MAIL_RETRY_BASE_MS: '100',
    MAIL_RETRY_MAX_MS: '400',
    MAIL_MAX_ATTEMPTS: '3',
    MAIL_LEASE_MS: '5000',
    MAIL_POLL_INTERVAL_MS: '50',
    NOTIFICATIONS_EVENT_ACK_WAIT_MS: '1000',
    SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
    // No dashboard here: Test receipts to any address (who the account's users are is e2e's matter,
    // e2e/test/test-receipts.e2e.test.ts); the hourly cap still applies.
    TEST_RECEIPTS_TO_ANY_ADDRESS: 'true',
    LOG_LEVEL: 'silent',
  };
}

export interface NotificationsStack {
  readonly service: RunningNotificationsService;
  readonly client: ServiceClient<typeof NotificationsService>;
  readonly policy: ServiceClient<typeof ReceiptPolicyService, PublicCallContext>;
  readonly config: NotificationsConfig;
  readonly db: pg.Pool;
  readonly database: TestDatabase;
  stop(): Promise<void>;
}

/** `env`: variables over fastEnv's (e.g. a small TEST_RECEIPTS_PER_ACCOUNT_HOUR). */
export async function startNotificationsStack(
  logger: Logger,
  sink: MailSink,
  natsPrefix: string,
  env: Record<string, string> = {},
): Promise<NotificationsStack> {
  const database = await createTestDatabase('notifications', NOTIFICATIONS_MIGRATIONS_DIR);
  const config = loadNotificationsConfig({ ...fastEnv(sink, natsPrefix, database.url), ...env });
  const service = await startNotificationsService(config, logger);
  const client = createServiceClient(NotificationsService, service.address);
  const policy = createServiceClient<typeof ReceiptPolicyService, PublicCallContext>(ReceiptPolicyService, service.address);
  const db = openTestPool(database.url, 2);
  return {
    service,
    client,
    policy,
    config,
    db,
    database,
    async stop() {
      client.close();
      policy.close();
      await service.stop();
      await db.end();
      await database.drop();
    },
  };
}

export const scope = (accountId: string, livemode = false): CallContext => ({ accountId, livemode, requestId: 'req_test' });

/** Publishes checkout's events as checkout would (its stream, subject, Nats-Msg-Id), for one test's prefix. */
export class EventPublisher {
  private readonly nats: NatsConnection;
  private readonly prefix: string;

  private constructor(nats: NatsConnection, prefix: string) {
    this.nats = nats;
    this.prefix = prefix;
  }

  static async connect(prefix: string): Promise<EventPublisher> {
    const nats = await connectNats(testNatsUrl(), 'notifications-test');
    await ensureStream(nats, contextStream(prefix, 'checkout', DEFAULT_EVENT_RETENTION));
    await ensureStream(nats, contextStream(prefix, 'customers', DEFAULT_EVENT_RETENTION));
    await ensureStream(nats, contextStream(prefix, 'webhooks', DEFAULT_EVENT_RETENTION));
    return new EventPublisher(nats, prefix);
  }

  async payment(type: PaymentEventType, event: PaymentEventInput): Promise<string> {
    const { id, message } = paymentEvent(type, event);
    await jetstream(this.nats).publish(
      prefixedSubject(this.prefix, checkoutEventSubject(type, event.payment.id)),
      JSON.stringify(encodeEvent(PaymentEventSchema, message)),
      { msgID: id },
    );
    return id;
  }

  async erased(accountId: string, customerId: string, paymentIds: string[]): Promise<void> {
    const id = `${customerId}.erased`;
    const message = buildEvent(CUSTOMER_ERASED, {
      id,
      type: 'customer.erased',
      occurredAt: Date.now(),
      accountId,
      livemode: false,
      customerId,
      paymentIds,
      emailRevisions: {},
    });
    await jetstream(this.nats).publish(
      prefixedSubject(this.prefix, CUSTOMER_ERASED_SUBJECT),
      JSON.stringify(encodeEvent(CustomerErasedSchema, message)),
      { msgID: id },
    );
  }

  /** What the webhooks context publishes when an endpoint fails for long or is disabled (docs/adr/0049). */
  async endpointAlert(
    accountId: string,
    type: EndpointAlertType,
    endpointId: string,
    fields: Record<string, unknown> = {},
  ): Promise<string> {
    const id = `${endpointId}.${type.slice('endpoint.'.length)}.1`;
    const message = buildEvent(ENDPOINT_ALERT, {
      id,
      type,
      occurredAt: Date.now(),
      accountId,
      livemode: false,
      endpointId,
      url: 'https://shop.example/hooks',
      disabledReason: '',
      ...fields,
    });
    await jetstream(this.nats).publish(
      prefixedSubject(this.prefix, endpointAlertSubject(type, endpointId)),
      JSON.stringify(encodeEvent(EndpointAlertSchema, message)),
      { msgID: id },
    );
    return id;
  }

  close(): Promise<void> {
    return this.nats.drain();
  }
}

/** A payment event as checkout publishes it, and its message id (`<payment>.<type>[.<cause>]`). */
export function paymentEvent(type: PaymentEventType, event: PaymentEventInput) {
  const id = `${event.payment.id}.${type}${event.cause ? `.${event.cause}` : ''}`;
  const message = buildEvent(PAYMENT_EVENT, {
    id,
    type,
    occurredAt: event.occurredAt ?? Date.now(),
    accountId: event.accountId,
    livemode: event.livemode ?? false,
    payment: {
      mode: event.livemode ? 'live' : 'test',
      source: 'api',
      status: type.slice('payment.'.length),
      feeBps: 150,
      holdAcceptable: false,
      createdAt: Date.now() - 60_000,
      expiresAt: Date.now() + 3_600_000,
      url: `https://pay.example/pay/${event.payment.id}`,
      ...event.payment,
    },
  });
  return { id, message };
}

export interface PaymentEventInput {
  readonly accountId: string;
  readonly livemode?: boolean;
  readonly occurredAt?: number;
  readonly cause?: string;
  readonly payment: { id: string; description: string; amount: string; currency: string } & Record<string, unknown>;
}
