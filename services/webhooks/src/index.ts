// What other workspace packages (the platform runner, end-to-end tests) may use of this service.
export { startWebhooksService } from './webhooks-service.ts';
export type { RunningWebhooksService, WebhooksOptions } from './webhooks-service.ts';
export { loadWebhooksConfig } from './config.ts';
export type { WebhooksConfig } from './config.ts';
export { WEBHOOKS_MIGRATIONS_DIR } from './migrations.ts';
export type { HostResolver } from './adapters/target-resolver.ts';
export { PAYMENT_EVENT_TYPES } from './domain/event-types.ts';
// The consumer side of the payment event contract, for the cross-context contract tests.
export { webhookPayment } from './domain/webhook-payment.ts';
