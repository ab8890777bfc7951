import type { OutboxPosition } from '@hc/events';
import { answerEach, type ServiceHandlers } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { CheckoutService, CreateCheckoutSessionRequest, GetCheckoutSessionRequest, ListPaymentsRequest } from '@hc/proto/checkout/v1';
import { acceptHeldPayment } from '../../use-cases/accept-held-payment.ts';
import { createPayment } from '../../use-cases/create-payment.ts';
import type { Payment } from '../../domain/payment.ts';
import type { Caller, CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { getPayment } from '../../use-cases/get-payment.ts';
import { getEventsPosition } from '../../use-cases/get-events-position.ts';
import { getPaymentTimeline } from '../../use-cases/get-payment-timeline.ts';
import { listPayments, paymentFilters } from '../../use-cases/list-payments.ts';
import { markProviderReached } from '../../use-cases/mark-provider-reached.ts';
import { simulatePayment } from '../../use-cases/simulate-payment.ts';
import { startPayment } from '../../use-cases/start-payment.ts';
import { paymentMessage } from './payment-message.ts';
import { accountSnapshot } from './account-snapshot.ts';

/** A create call's fields as the use case takes them. */
function createInput(request: CreateCheckoutSessionRequest) {
  return {
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    customerEmail: request.customerEmail,
    reference: request.reference,
    metadata: request.metadata?.entries,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
    locale: request.locale,
    customer: request.customer,
  };
}

/** gRPC handlers: proto in, use case, proto out. No rules here. */
export function checkoutHandlers(
  deps: CheckoutDependencies,
  eventsPosition: OutboxPosition,
  logger: Logger,
): ServiceHandlers<typeof CheckoutService> {
  // Every answer carries the payment as the one Payment message (docs/adr/0102, 0106).
  const paymentAnswer = (payment: Payment) => paymentMessage(payment, deps);
  const changed = (payment: Payment) => ({ updated: paymentAnswer(payment) });

  const create = async (request: CreateCheckoutSessionRequest, ctx: Caller) => {
    const { payment, created } = await createPayment(deps, ctx, createInput(request), accountSnapshot(request.account), request.id);
    return { created, payment: paymentAnswer(payment) };
  };

  const read = async (request: GetCheckoutSessionRequest, ctx: Caller) => ({
    payment: paymentAnswer(await getPayment(deps, ctx, request.id)),
  });

  const list = async (request: ListPaymentsRequest, ctx: Caller) => {
    const page = await listPayments(deps, ctx, request.limit, request.startingAfter, paymentFilters(request));
    return { hasMore: page.hasMore, data: page.payments.map(paymentAnswer) };
  };

  return {
    createCheckoutSession: create,
    getCheckoutSession: read,

    // Grouped calls (docs/adr/0064): each call of the group runs as its single call would, all at once,
    // so the store's grouped statements (ADR 0034, 0036) answer them together.
    async createCheckoutSessions(request, ctx) {
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'CreateCheckoutSessions', (call, requestId) =>
          create(call, { ...ctx, requestId }),
        ),
      };
    },

    async getCheckoutSessions(request, ctx) {
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'GetCheckoutSessions', (call, requestId) =>
          read(call, { ...ctx, requestId }),
        ),
      };
    },

    async startCheckoutSession(request, ctx) {
      const started = await startPayment(
        deps,
        ctx,
        request.id,
        { customerEmail: request.customerEmail, country: request.country },
        { payoutWallet: request.account?.payoutWallet ?? null, feeBps: request.account?.feeBps ?? 0 },
      );
      return { providers: started.providers, payment: { ...paymentAnswer(started.payment), country: started.country ?? undefined } };
    },

    listPayments: list,

    async listPaymentPages(request, ctx) {
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'ListPaymentPages', (call, requestId) =>
          list(call, { ...ctx, requestId }),
        ),
      };
    },

    async simulatePayment(request, ctx) {
      return changed(await simulatePayment(deps, ctx, request.id, request.outcome));
    },

    async markProviderReached(request, ctx) {
      return changed(await markProviderReached(deps, ctx, request.id, request.provider));
    },

    async acceptHeldPayment(request, ctx) {
      return changed(await acceptHeldPayment(deps, ctx, request.id));
    },

    async getPaymentTimeline(request, ctx) {
      const entries = await getPaymentTimeline(deps, ctx, request.id);
      return {
        entries: entries.map((e) => ({ source: e.source, kind: e.kind, at: BigInt(e.at.getTime()), detailJson: JSON.stringify(e.detail) })),
      };
    },

    async getEventsPosition(request) {
      return { streamSequence: await getEventsPosition(eventsPosition, request.waitMs) };
    },
  };
}
