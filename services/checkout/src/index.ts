// What other workspace packages (the platform runner, end-to-end tests) may use of this service.
export { startCheckoutService } from './checkout-service.ts';
export type { RunningCheckoutService } from './checkout-service.ts';
export { loadCheckoutConfig } from './config.ts';
export type { CheckoutConfig } from './config.ts';
export { CHECKOUT_MIGRATIONS_DIR } from './migrations.ts';
export { expireDuePayments } from './use-cases/expire-due-payments.ts';
export { applyVerdict } from './use-cases/apply-verdict.ts';
export type { Verdict } from './domain/payment-transitions.ts';
export type { PaymentEvent, PaymentSnapshot, PaymentEventType } from './domain/payment-events.ts';
// The producer side of the event contracts, for the cross-context contract tests (e2e/test/event-contracts.test.ts).
export { paymentSnapshot, paymentEventPayload } from './domain/payment-events.ts';
export { sessionCreatedEvent, sessionStartedEvent, sessionEventPayload } from './domain/session-events.ts';
export { UNSTARTED, NO_SETTLEMENT } from './domain/payment.ts';
export type { Payment } from './domain/payment.ts';
// The store on its own, for tools/bench/src/checkout-store.ts (Prisma versus prepared statements, docs/adr/0030).
export { createCheckoutDatabase } from './store/prisma.ts';
export { PaymentStore } from './store/payments.ts';
export { NO_CUSTOMER_DETAILS } from './domain/order-customer.ts';
