import type { OutboxPosition } from '@hc/events';
import { answerEach, type ServiceHandlers } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { CheckoutService, CreateCheckoutSessionRequest, GetCheckoutSessionRequest } from '@hc/proto/checkout/v1';
import { acceptHeldPayment } from '../../use-cases/accept-held-payment.ts';
import { createCheckoutSession } from '../../use-cases/create-checkout-session.ts';
import type { Caller, CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { getCheckoutSession } from '../../use-cases/get-checkout-session.ts';
import { getEventsPosition } from '../../use-cases/get-events-position.ts';
import { getPaymentTimeline } from '../../use-cases/get-payment-timeline.ts';
import { listPayments, paymentFilters } from '../../use-cases/list-payments.ts';
import { markProviderReached } from '../../use-cases/mark-provider-reached.ts';
import { simulatePayment } from '../../use-cases/simulate-payment.ts';
import { startCheckoutSession } from '../../use-cases/start-checkout-session.ts';
import { accountSnapshot, sessionMessage } from './session-message.ts';

/** gRPC handlers: proto in, use case, proto out. No rules here. */
export function checkoutHandlers(
  deps: CheckoutDependencies,
  eventsPosition: OutboxPosition,
  logger: Logger,
): ServiceHandlers<typeof CheckoutService> {
  const message = (session: Parameters<typeof sessionMessage>[0]) => sessionMessage(session, deps.publicBaseUrl);

  const create = async (request: CreateCheckoutSessionRequest, ctx: Caller) => {
    const { session, created } = await createCheckoutSession(
      deps,
      ctx,
      {
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
      },
      accountSnapshot(request.account),
      request.id,
    );
    return { session: message(session), created };
  };

  const read = async (request: GetCheckoutSessionRequest, ctx: Caller) => ({
    session: message(await getCheckoutSession(deps, ctx, request.id)),
  });

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
      const started = await startCheckoutSession(
        deps,
        ctx,
        request.id,
        { customerEmail: request.customerEmail, country: request.country },
        { payoutWallet: request.account?.payoutWallet ?? null, feeBps: request.account?.feeBps ?? 0 },
      );
      return { session: { ...message(started.session), country: started.country ?? undefined }, providers: started.providers };
    },

    async listPayments(request, ctx) {
      const page = await listPayments(deps, ctx, request.limit, request.startingAfter, paymentFilters(request));
      return { payments: page.payments.map(message), hasMore: page.hasMore };
    },

    async simulatePayment(request, ctx) {
      return { payment: message(await simulatePayment(deps, ctx, request.id, request.outcome)) };
    },

    async markProviderReached(request, ctx) {
      return { payment: message(await markProviderReached(deps, ctx, request.id, request.provider)) };
    },

    async acceptHeldPayment(request, ctx) {
      return { payment: message(await acceptHeldPayment(deps, ctx, request.id)) };
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
