import type { OutboxPosition } from '@hc/events';
import type { ServiceHandlers } from '@hc/grpc';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import { acceptHeldPayment } from '../../use-cases/accept-held-payment.ts';
import { createCheckoutSession } from '../../use-cases/create-checkout-session.ts';
import type { CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { getCheckoutSession } from '../../use-cases/get-checkout-session.ts';
import { getEventsPosition } from '../../use-cases/get-events-position.ts';
import { getPaymentTimeline } from '../../use-cases/get-payment-timeline.ts';
import { listPayments, paymentFilters } from '../../use-cases/list-payments.ts';
import { markProviderReached } from '../../use-cases/mark-provider-reached.ts';
import { simulatePayment } from '../../use-cases/simulate-payment.ts';
import { startCheckoutSession } from '../../use-cases/start-checkout-session.ts';
import { accountSnapshot, sessionMessage } from './session-message.ts';

/** gRPC handlers: proto in, use case, proto out. No rules here. */
export function checkoutHandlers(deps: CheckoutDependencies, eventsPosition: OutboxPosition): ServiceHandlers<typeof CheckoutService> {
  const message = (session: Parameters<typeof sessionMessage>[0]) => sessionMessage(session, deps.publicBaseUrl);
  return {
    async createCheckoutSession(request, ctx) {
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
          customer: request.customer,
        },
        accountSnapshot(request.account),
        request.id,
      );
      return { session: message(session), created };
    },

    async getCheckoutSession(request, ctx) {
      return { session: message(await getCheckoutSession(deps, ctx, request.id)) };
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
